import type { Recipe } from './recipe'

/** What a recipe changes, in a sentence's words (the preview's live region, a remix's page). */
export function describeRecipe(recipe: Recipe, outlined: boolean): string {
  const parts: string[] = []
  const colours = Object.keys(recipe.colours ?? {}).length
  if (colours > 0) parts.push(`${colours} ${colours === 1 ? 'colour' : 'colours'} changed`)
  if (recipe.caption) parts.push(`caption “${recipe.caption.text}” at the ${recipe.caption.position}`)
  if (outlined) parts.push('white outline')
  if (recipe.speed !== undefined && recipe.speed !== 1) parts.push(`${formatSpeed(recipe.speed)} speed`)
  if (recipe.mirror) parts.push('mirrored')
  return parts.length === 0 ? 'as the original' : parts.join(', ')
}

/** 1.5 → "1.5x". */
export function formatSpeed(speed: number): string {
  return `${Number(speed.toFixed(2))}x`
}
