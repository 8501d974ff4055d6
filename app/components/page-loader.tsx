import { Center, Loader, VisuallyHidden } from '@mantine/core'

export function PageLoader() {
  return (
    <Center py="xl" role="status">
      <Loader aria-hidden="true" />
      <VisuallyHidden>Loading…</VisuallyHidden>
    </Center>
  )
}
