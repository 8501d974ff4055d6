import { Link } from '@tanstack/react-router'
import { usePageTitle } from '../lib/page-title'
import buttonClasses from './button.module.css'
import classes from './not-found.module.css'

interface NotFoundProps {
  title?: string
  message?: string
}

export function NotFound({
  title = 'Page not found',
  message = 'This cave room is empty: no page lives here. Maybe the wumpus ate it.',
}: NotFoundProps) {
  usePageTitle('Not found')
  return (
    <div className={classes.notFound}>
      <p className={classes.code} aria-hidden="true">
        404
      </p>
      <h1 className="title-h1">{title}</h1>
      <p className={classes.message}>{message}</p>
      <Link to="/" className={buttonClasses.button}>
        Back to the gallery
      </Link>
    </div>
  )
}
