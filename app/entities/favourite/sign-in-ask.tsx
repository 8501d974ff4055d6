import { Link, useRouterState } from '@tanstack/react-router'
import { useEffect, useEffectEvent, useId, useRef } from 'react'
import buttonClasses from '../../components/button.module.css'
import { PlainButton } from '../../components/plain-button'
import classes from './sign-in-ask.module.css'

export interface SignInAskProps {
  name: string
  onClose: () => void
}

/**
 * A signed-out visitor tapped a heart: favourites belong to an account (they follow it to every device), so
 * this asks to sign in, and coming back here after. Nothing is kept on this device meanwhile.
 */
export default function SignInAsk({ name, onClose }: SignInAskProps) {
  const from = useRouterState({ select: (state) => state.location.href })
  const ask = useRef<HTMLDivElement>(null)
  const textId = useId()
  /** `refocus` gives the focus back to the heart (Escape, Not now). */
  function close(refocus: boolean) {
    if (refocus) ask.current?.parentElement?.querySelector('button')?.focus()
    onClose()
  }
  const closeFromDocument = useEffectEvent(close)

  useEffect(() => {
    ask.current?.querySelector('a')?.focus()
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && closeFromDocument(true)
    const onPointer = (event: PointerEvent) => {
      // A tap on the heart itself toggles the ask through the heart.
      if (!ask.current?.parentElement?.contains(event.target as Node)) closeFromDocument(false)
    }
    document.addEventListener('keydown', onKey)
    document.addEventListener('pointerdown', onPointer)
    return () => {
      document.removeEventListener('keydown', onKey)
      document.removeEventListener('pointerdown', onPointer)
    }
  }, [])

  return (
    <div ref={ask} role="dialog" aria-label="Sign in to favourite" aria-describedby={textId} className={classes.ask}>
      <p id={textId} className={classes.text}>
        Sign in to favourite {name}. Your favourites follow you to every device you sign in on.
      </p>
      <div className={classes.actions}>
        <Link to="/signIn" search={{ from }} className={buttonClasses.button} data-size="compact-sm">
          Sign in
        </Link>
        <PlainButton variant="subtle" size="compact-sm" onClick={() => close(true)}>
          Not now
        </PlainButton>
      </div>
    </div>
  )
}
