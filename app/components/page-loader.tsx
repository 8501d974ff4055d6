import classes from './page-loader.module.css'
import { Spinner } from './spinner'

export function PageLoader() {
  return (
    <div className={classes.loader} role="status">
      <Spinner />
      <span className="visually-hidden">Loading…</span>
    </div>
  )
}
