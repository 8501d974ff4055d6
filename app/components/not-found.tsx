import { Stack, Text, Title } from '@mantine/core'
import { usePageTitle } from '../lib/page-title'
import { ButtonLink } from './router-links'

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
    <Stack align="center" ta="center" py={64} gap="md">
      <Text fz={64} fw={800} lh={1} c="dimmed" aria-hidden="true">
        404
      </Text>
      <Title order={1}>{title}</Title>
      <Text maw={480}>{message}</Text>
      <ButtonLink to="/">Back to the gallery</ButtonLink>
    </Stack>
  )
}
