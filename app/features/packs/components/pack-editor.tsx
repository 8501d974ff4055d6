import { ActionIcon, Alert, Button, Group, Radio, Stack, Text, TextInput, Textarea, Title } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { showToast } from '../../../lib/toast'
import { keepPreviousData, useInfiniteQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { PACK_DESCRIPTION_MAX, PACK_ITEMS_MAX } from '../../../../contract/limits'
import { createPackSchema, type PackDetail } from '../../../../contract/pack'
import type { Wumpus } from '../../../../contract/wumpus'
import { usePageTitle } from '../../../lib/page-title'
import { errorMessage, fieldErrors } from '../../../lib/error-message'
import { TrashIcon } from '../../../components/icons'
import { useNeedsNetwork } from '../../../components/needs-network'
import { wumpusListQueryOptions } from '../../../entities/wumpus/api'
import { packKeys, useCreateMyPack, useCreatePack, useUpdatePack } from '../api'
import { packChanges, queuePackEdit } from '../pack-edits'
import { CopyPackLinkButton } from './copy-pack-link-button'
import classes from './packs.module.css'
import { VerifyEmailFirst } from '../../../components/verify-email-first'

/** The owner of a personal pack, and whether they may make packs (a verified email). */
export interface PackOwner {
  email: string
  emailVerified: boolean
}

interface PackEditorProps {
  /** The pack to edit; none to make a new one. */
  pack?: PackDetail
  /** What a new pack starts with (a pack made from one's favourites). */
  start?: { name: string; items: Wumpus[] }
  /**
   * A personal pack of this owner (Dashboard → My packs), with its visibility; its edits go through the
   * outbox, so they work offline. Without it, a curated pack (admins).
   */
  owner?: PackOwner
  onSaved: (pack: { id: string }) => void
}

type PersonalVisibility = 'private' | 'link'

/**
 * Dashboard → Packs or My packs → New pack / Edit: name, description, stickers in order (add, move, remove)
 * and the cover; for a personal pack also who may open it.
 */
export function PackEditor({ pack, start, owner, onSaved }: PackEditorProps) {
  usePageTitle(pack ? `Edit ${pack.name}` : 'New pack')
  const [name, setName] = useState(pack?.name ?? start?.name ?? '')
  const [description, setDescription] = useState(pack?.description ?? '')
  const [items, setItems] = useState<Wumpus[]>(pack?.items ?? start?.items.slice(0, PACK_ITEMS_MAX) ?? [])
  const [coverId, setCoverId] = useState<string | null>(pack?.coverWumpusId ?? null)
  const [visibility, setVisibility] = useState<PersonalVisibility>(pack?.visibility === 'link' ? 'link' : 'private')
  // An edit sends what changed from the pack as this form got it, not as later reads show it.
  const [loaded] = useState(pack)
  // Checked on submit, then again on every change (a fixed field loses its message as it is typed);
  // what the server refused stays until the next submit.
  const [submitted, setSubmitted] = useState(false)
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({})
  const [queueing, setQueueing] = useState(false)
  const queryClient = useQueryClient()
  const create = useCreatePack()
  const createMine = useCreateMyPack()
  const update = useUpdatePack(pack?.id ?? '')
  const saving = create.isPending || createMine.isPending || update.isPending || queueing
  const network = useNeedsNetwork()
  const cover = items.some((item) => item._id === coverId) ? coverId : (items[0]?._id ?? null)
  // Creating needs the network; a personal pack's edits are kept on the device and sent when it can.
  const needsNetwork = !pack || !owner
  const unverified = owner !== undefined && !owner.emailVerified

  const move = (index: number, by: -1 | 1) =>
    setItems((list) => {
      const next = [...list]
      ;[next[index], next[index + by]] = [next[index + by]!, next[index]!]
      return next
    })
  const remove = (id: string) => setItems((list) => list.filter((item) => item._id !== id))
  const add = (wumpus: Wumpus) => setItems((list) => (list.some((item) => item._id === wumpus._id) ? list : [...list, wumpus]))

  const body = { name, description, wumpusIds: items.map((item) => item._id), ...(cover ? { coverWumpusId: cover } : {}) }
  const checked = createPackSchema.safeParse(body)
  // The first problem of each field, in the form's order.
  const problems: Record<string, string> = {}
  if (submitted && !checked.success) for (const issue of checked.error.issues) problems[String(issue.path[0])] ??= issue.message
  const errors = { ...serverErrors, ...problems }

  async function save() {
    setSubmitted(true)
    setServerErrors({})
    if (!checked.success) return
    try {
      if (owner && loaded) return await saveEdit(owner, loaded)
      const saved = pack
        ? await update.mutateAsync(body)
        : owner
          ? await createMine.mutateAsync({ ...body, visibility })
          : await create.mutateAsync(body)
      showToast({ color: 'green', message: pack ? 'Pack saved' : 'Pack created' })
      onSaved(saved)
    } catch (error) {
      setServerErrors(fieldErrors(error))
      showToast({
        color: 'red',
        title: pack ? 'Could not save the pack' : 'Could not create the pack',
        message: errorMessage(error),
      })
    }
  }

  /** Only what changed, with the time of the edit: shown at once, sent now or when the connection returns. */
  async function saveEdit(owner: PackOwner, pack: PackDetail) {
    const changes = packChanges(pack, { name, description, wumpusIds: items.map((item) => item._id), coverWumpusId: cover, visibility })
    if (Object.keys(changes).length > 0) {
      setQueueing(true)
      try {
        await queuePackEdit(owner.email, pack, changes)
      } finally {
        setQueueing(false)
      }
      await queryClient.invalidateQueries({ queryKey: packKeys.all })
    }
    showToast(
      network.online
        ? { color: 'green', message: 'Pack saved' }
        : { color: 'green', title: 'Pack saved on this device', message: 'It is sent when you are back online.' },
    )
    onSaved(pack)
  }

  return (
    <Stack gap="lg" maw={760}>
      <Title order={1}>{pack ? `Edit ${pack.name}` : 'New pack'}</Title>
      {unverified && <VerifyEmailFirst>Making packs needs a verified email address.</VerifyEmailFirst>}
      {needsNetwork && network.note}
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          void save()
        }}
      >
        <Stack gap="md">
          <TextInput label="Name" required value={name} onChange={(event) => setName(event.currentTarget.value)} error={errors.name} />
          <Textarea
            label="Description"
            description={`Optional, at most ${PACK_DESCRIPTION_MAX} characters`}
            rows={3}
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
            error={errors.description}
          />
          {owner && (
            <Radio.Group label="Who can open it" value={visibility} onChange={setVisibility}>
              <Stack gap="xs" mt={6}>
                <Radio value="private" label="Private" description="Only you (and the gallery’s admins)." />
                <Radio
                  value="link"
                  label="Anyone with the link"
                  description="Whoever has the link opens the pack and its downloads. It is not listed anywhere."
                />
              </Stack>
            </Radio.Group>
          )}
          {owner && pack && visibility === 'link' && (
            <Group gap="xs">
              <CopyPackLinkButton id={pack.id} />
              {pack.visibility !== 'link' && (
                <Text size="sm" c="dimmed">
                  The link works once you save.
                </Text>
              )}
            </Group>
          )}
          <section aria-labelledby="pack-items-heading">
            <Group justify="space-between" mb={4}>
              <Text component="h2" fw={700} id="pack-items-heading">
                Stickers in this pack
              </Text>
              <Text size="sm" c="dimmed">
                {items.length} of at most {PACK_ITEMS_MAX}
              </Text>
            </Group>
            {items.length === 0 ? (
              <Text size="sm" c="dimmed">
                No stickers yet: add some from the gallery below.
              </Text>
            ) : (
              <Radio.Group value={cover} onChange={setCoverId} aria-label="Cover sticker">
                <ol className={classes.downloads} aria-label="Stickers in this pack">
                  {items.map((item, index) => (
                    <li key={item._id} className={classes.pickerItem}>
                      <Text size="sm" c="dimmed" w={24} ta="right">
                        {index + 1}
                      </Text>
                      <Thumb wumpus={item} />
                      <Text size="sm" className={classes.itemName}>
                        {item.name}
                      </Text>
                      <Radio
                        value={item._id}
                        label="Cover"
                        classNames={{ label: classes.coverLabel }}
                        aria-label={`Use ${item.name} as the cover`}
                      />
                      <ActionIcon
                        variant="default"
                        disabled={index === 0}
                        onClick={() => move(index, -1)}
                        aria-label={`Move ${item.name} up`}
                      >
                        ↑
                      </ActionIcon>
                      <ActionIcon
                        variant="default"
                        disabled={index === items.length - 1}
                        onClick={() => move(index, 1)}
                        aria-label={`Move ${item.name} down`}
                      >
                        ↓
                      </ActionIcon>
                      <ActionIcon
                        variant="light"
                        color="red"
                        onClick={() => remove(item._id)}
                        aria-label={`Remove ${item.name} from the pack`}
                      >
                        <TrashIcon />
                      </ActionIcon>
                    </li>
                  ))}
                </ol>
              </Radio.Group>
            )}
            {(errors.wumpusIds || errors.coverWumpusId) && (
              <Text size="sm" c="red" role="alert" mt={4}>
                {errors.wumpusIds ?? errors.coverWumpusId}
              </Text>
            )}
          </section>
          <StickerPicker inPack={new Set(items.map((item) => item._id))} full={items.length >= PACK_ITEMS_MAX} onAdd={add} />
          <Group>
            <Button
              type="submit"
              loading={saving}
              disabled={(needsNetwork && !network.online) || unverified}
              aria-describedby={Object.keys(problems).length > 0 ? 'pack-problems' : undefined}
            >
              {pack ? 'Save pack' : 'Create pack'}
            </Button>
          </Group>
          {/* What stops the submit, beside the button (the fields above say it too, where they may be scrolled away). */}
          {Object.keys(problems).length > 0 && (
            <Text size="sm" c="red" id="pack-problems" aria-live="polite">
              {pack ? 'Not saved yet' : 'Not created yet'}: {Object.values(problems).join('. ')}.
            </Text>
          )}
        </Stack>
      </form>
    </Stack>
  )
}

function Thumb({ wumpus }: { wumpus: Wumpus }) {
  return <img className={classes.thumb} src={wumpus.preview?.still ?? wumpus.gif} alt="" width={48} height={48} loading="lazy" />
}

/** The gallery's own search, to find stickers and add them to the pack. */
function StickerPicker({ inPack, full, onAdd }: { inPack: ReadonlySet<string>; full: boolean; onAdd: (wumpus: Wumpus) => void }) {
  const [query, setQuery] = useState('')
  const [q] = useDebouncedValue(query.trim(), 250)
  const results = useInfiniteQuery({ ...wumpusListQueryOptions(q ? { q } : {}), placeholderData: keepPreviousData })
  const found = results.data?.pages.flatMap((page) => page.items) ?? []
  return (
    <section aria-labelledby="pack-picker-heading">
      <Text component="h2" fw={700} id="pack-picker-heading" mb={4}>
        Add stickers
      </Text>
      <TextInput
        type="search"
        placeholder="Search the gallery"
        aria-label="Search the gallery for stickers"
        value={query}
        onChange={(event) => setQuery(event.currentTarget.value)}
      />
      {results.isError && !results.data ? (
        <Alert color="red" variant="light" mt="xs">
          {errorMessage(results.error, 'Could not search the gallery.')}
        </Alert>
      ) : found.length === 0 && results.data ? (
        <Text size="sm" c="dimmed" mt="xs">
          No sticker matches “{q}”.
        </Text>
      ) : (
        <ul className={classes.downloads} aria-label="Search results">
          {found.map((wumpus) => (
            <li key={wumpus._id} className={classes.pickerItem}>
              <Thumb wumpus={wumpus} />
              <Text size="sm" className={classes.itemName}>
                {wumpus.name}
              </Text>
              <Button
                size="compact-sm"
                variant="light"
                disabled={inPack.has(wumpus._id) || full}
                onClick={() => onAdd(wumpus)}
                aria-label={`Add ${wumpus.name}`}
              >
                {inPack.has(wumpus._id) ? 'Added' : 'Add'}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {results.hasNextPage && (
        <Button variant="subtle" size="compact-sm" mt={4} onClick={() => void results.fetchNextPage()} loading={results.isFetchingNextPage}>
          More results
        </Button>
      )}
    </section>
  )
}
