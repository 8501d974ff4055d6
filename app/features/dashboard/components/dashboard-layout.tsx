import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import classes from './dashboard-layout.module.css'

interface DashboardLink {
  to:
    | '/dashboard'
    | '/dashboard/profile'
    | '/dashboard/favourites'
    | '/dashboard/own'
    | '/dashboard/my-packs'
    | '/dashboard/submissions'
    | '/dashboard/review'
    | '/dashboard/reports'
    | '/dashboard/addNew'
    | '/dashboard/manage'
    | '/dashboard/packs'
    | '/dashboard/users'
    | '/dashboard/activity'
    | '/dashboard/backups'
  label: string
}

const EVERYONE: DashboardLink[] = [
  { to: '/dashboard', label: 'Dashboard' },
  { to: '/dashboard/profile', label: 'My profile' },
  { to: '/dashboard/own', label: 'My animation' },
  { to: '/dashboard/my-packs', label: 'My packs' },
  { to: '/dashboard/favourites', label: 'Favourites' },
  { to: '/dashboard/submissions', label: 'My submissions' },
]

const ADMINS: DashboardLink[] = [
  { to: '/dashboard/addNew', label: 'Add animation' },
  { to: '/dashboard/manage', label: 'Manage animation' },
  { to: '/dashboard/review', label: 'Review' },
  { to: '/dashboard/reports', label: 'Reports' },
  { to: '/dashboard/packs', label: 'Packs' },
  { to: '/dashboard/users', label: 'All users' },
  { to: '/dashboard/activity', label: 'Activity' },
  { to: '/dashboard/backups', label: 'Backups' },
]

interface DashboardLayoutProps {
  isAdmin: boolean
  children: ReactNode
}

/** The dashboard's frame: a sidebar on wide screens; on phones every section at once, in rows that wrap. */
export function DashboardLayout({ isAdmin, children }: DashboardLayoutProps) {
  return (
    <div className={classes.layout}>
      <nav aria-label="Dashboard" className={classes.sidebar}>
        <ul className={classes.list}>
          {EVERYONE.map((link) => (
            <DashboardNavItem key={link.to} link={link} />
          ))}
          {/* On phones the admin pages start a row of their own. */}
          {isAdmin && <li className={classes.rowBreak} aria-hidden="true" />}
          {isAdmin &&
            ADMINS.map((link, index) => (
              <DashboardNavItem key={link.to} link={link} className={index === 0 ? classes.adminStart : undefined} />
            ))}
        </ul>
      </nav>
      <div className={classes.content}>{children}</div>
    </div>
  )
}

function DashboardNavItem({ link, className }: { link: DashboardLink; className?: string }) {
  return (
    <li className={className}>
      <Link to={link.to} className={classes.link} activeOptions={{ exact: link.to === '/dashboard' }}>
        {link.label}
      </Link>
    </li>
  )
}
