import { Button, Group } from '@mantine/core'
import type { ReactNode } from 'react'
import { useNeedsNetwork } from './needs-network'

interface SubmitRowProps {
  children: ReactNode
  loading: boolean
  /** Off for a reason of the form's own (an upload under way); it is off while offline too, saying why beside it. */
  disabled?: boolean
}

/** A form's submit button: full width on phones, off while offline with the reason beside it. */
export function SubmitRow({ children, loading, disabled = false }: SubmitRowProps) {
  const network = useNeedsNetwork()
  return (
    <Group>
      <Button type="submit" loading={loading} disabled={disabled || !network.online} w={{ base: '100%', xs: 'auto' }}>
        {children}
      </Button>
      {network.note}
    </Group>
  )
}
