import { Link } from '@tanstack/react-router'
import { usePageTitle } from '../lib/page-title'
import { useSession } from '../lib/session-provider'
import buttonClasses from './button.module.css'
import classes from './not-found.module.css'

/** An admin page opened by a signed-in user without admin power: what it is, and where to go instead. */
export function AdminsOnly() {
  usePageTitle('Admins only')
  const session = useSession()
  const user = session.status === 'signed-in' ? session.user : undefined
  return (
    <div className={classes.notFound}>
      <h1 className="title-h1">Admins only</h1>
      <p className={classes.message}>
        This page is for the gallery’s admins{user ? `, and ${user.name || user.email} is not one` : ''}.
        {user && !user.emailVerified ? ' An admin’s power also needs a verified email address.' : ''}
      </p>
      <Link to="/dashboard" className={buttonClasses.button}>
        Go to your dashboard
      </Link>
    </div>
  )
}
