import { notifications } from '@mantine/notifications'
import type { UpdatedPack } from '../../../contract/pack'
import { onOutboxEvent } from '../sync/outbox'
import { isPackEdit, supersededMessage } from './pack-edits'

let watching: (() => void) | undefined

/**
 * Once per page: when a pack edit reaches the server (now, or later when the connection returns) and
 * another device had edited one of its fields later, the toast says that field kept the newer value.
 * (The outbox sync refreshes the pack's queries: api.ts names them.)
 */
export function watchPackEdits(): void {
  watching ??= onOutboxEvent((event) => {
    if (event.type !== 'sent' || !isPackEdit(event.write)) return
    const answer = event.body as UpdatedPack | undefined
    if (answer?.superseded?.length) notifications.show({ color: 'yellow', message: supersededMessage(answer) })
  })
}
