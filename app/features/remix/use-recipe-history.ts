import { useRef, useState } from 'react'
import type { Recipe } from '../../../contract/remix/recipe'

/**
 * Undo and Reset over a recipe that lives elsewhere (the page address). A run of changes of one kind
 * (typing a caption, dragging in one colour picker, sliding the speed) is one step to undo.
 */
export function useRecipeHistory(recipe: Recipe, apply: (next: Recipe) => void) {
  const [past, setPast] = useState<Recipe[]>([])
  const lastRun = useRef<string | undefined>(undefined)

  function change(next: Recipe, run?: string) {
    if (run === undefined || run !== lastRun.current) setPast((steps) => [...steps, recipe])
    lastRun.current = run
    apply(next)
  }

  function undo() {
    const previous = past[past.length - 1]
    if (!previous) return
    setPast((steps) => steps.slice(0, -1))
    lastRun.current = undefined
    apply(previous)
  }

  const isEdited = Object.keys(recipe).length > 0
  return {
    change,
    undo,
    canUndo: past.length > 0,
    /** Back to the original (itself a step Undo takes back). */
    reset: () => isEdited && change({}),
    isEdited,
  }
}
