import { notifications } from '@mantine/notifications'
import type { QueryClient } from '@tanstack/react-query'
import type { UpdatedPack } from '../../../contract/pack'
import { onOutboxEvent } from '../sync/outbox'
import { packKeys } from './api'
import { isPackEdit, supersededMessage } from './pack-edits'

let watching: (() => void) | undefined

/**
 * Follows the outbox for pack edits, once per page: when one reaches the server (now, or later when the
 * connection returns) the pack's reads are refreshed, and a field another device edited later is named.
 */
export function watchPackEdits(queryClient: QueryClient): void {
  watching ??= onOutboxEvent((event) => {
    if (event.type === 'changed' || !isPackEdit(event.write)) return
    void queryClient.invalidateQueries({ queryKey: packKeys.all })
    const answer = event.type === 'sent' ? (event.body as UpdatedPack | undefined) : undefined
    if (answer?.superseded?.length) notifications.show({ color: 'yellow', message: supersededMessage(answer) })
  })
}
