import { Paper, Stack, Title } from '@mantine/core'
import type { ReactNode } from 'react'

/** The narrow centred card of the smaller account screens. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} radius="md" maw={480} mx="auto" my={{ base: 'xs', md: 'xl' }}>
      <Stack gap="md">
        <Title order={1} ta="center">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  )
}
