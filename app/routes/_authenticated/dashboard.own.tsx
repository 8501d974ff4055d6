import { createFileRoute } from '@tanstack/react-router'
import { PageLoader } from '../../components/page-loader'
import { RouteError } from '../../components/route-error'
import { loadMyAnimation, MyAnimationPage } from './-my-animation'

// My animation, also at /dashboard: one page for both (-my-animation.tsx).
export const Route = createFileRoute('/_authenticated/dashboard/own')({
  loader: loadMyAnimation,
  pendingComponent: PageLoader,
  errorComponent: RouteError,
  component: MyAnimationPage,
})
