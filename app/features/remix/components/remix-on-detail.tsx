import { Alert, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core'
import { showToast } from '../../../lib/toast'
import { useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import type { Wumpus } from '../../../../contract/wumpus'
import { AnchorLink, ButtonLink } from '../../../components/router-links'
import { ShareButton } from '../../../components/share-button'
import { errorMessage } from '../../../lib/error-message'
import { useSession } from '../../../lib/session-provider'
import { ConfirmDeleteModal } from '../../../components/confirm-delete'
import { useOnline } from '../../../lib/use-online'
import { wumpusQueryOptions } from '../../../entities/wumpus/api'
import { useDeleteRemix, useRemixSharing, useRenameRemix, useRenewRemixKeys } from '../api'
import { REMIX_NAME_MAX, remixNameSchema } from '../../../../contract/remix/remix-name'
import { describeRecipe } from '../../../../contract/remix/recipe-text'

/** On an original's page: how many remixes were made of it, and "Make it yours" (or the way to it); nothing on a remix's. */
export function MakeItYours({ wumpus }: { wumpus: Wumpus }) {
  const session = useSession()
  if (wumpus.remixOf !== undefined) return null
  const editor = `/wumpus/${wumpus._id}/remix`
  const count = wumpus.remixes ?? 0
  return (
    <section aria-labelledby="remix-heading">
      <Title order={2} size="h4" id="remix-heading" mb="xs">
        Your own version
      </Title>
      <Stack gap="xs" align="flex-start">
        <Text size="sm" c="dimmed">
          {count === 0
            ? 'No remixes yet: recolour it, caption it, make it yours.'
            : `${count.toLocaleString('en-US')} ${count === 1 ? 'remix' : 'remixes'} made of it`}
        </Text>
        {session.status !== 'signed-in' ? (
          <ButtonLink to="/signIn" search={{ from: editor }} variant="light">
            Sign in to make it yours
          </ButtonLink>
        ) : session.user.emailVerified ? (
          <ButtonLink to="/wumpus/$id/remix" params={{ id: wumpus._id }}>
            Make it yours
          </ButtonLink>
        ) : (
          <Text size="sm">
            Making your own version needs a verified email address.{' '}
            <AnchorLink to="/emailVerification" search={{ from: editor }}>
              Verify it
            </AnchorLink>
          </Text>
        )}
      </Stack>
    </section>
  )
}

/** On a remix's page: whose version of which original, what it changes, and its owner's sharing and delete; nothing on an original's. */
export function RemixFacts({ wumpus }: { wumpus: Wumpus }) {
  return wumpus.remixOf === undefined ? null : <AboutRemix remix={{ ...wumpus, remixOf: wumpus.remixOf }} />
}

function AboutRemix({ remix }: { remix: Wumpus & { remixOf: string } }) {
  const session = useSession()
  const original = useQuery(wumpusQueryOptions(remix.remixOf))
  const owner = session.status === 'signed-in' && session.user.email === remix.u_email
  const originalName = original.data?.name ?? 'the original'
  return (
    <Stack gap="xs">
      <Text fw={500}>
        {owner ? 'Your version of ' : `${remix.u_name}’s version of `}
        <AnchorLink to="/wumpus/$id" params={{ id: remix.remixOf }}>
          {originalName}
        </AnchorLink>
      </Text>
      {remix.recipe && (
        <Text size="sm" c="dimmed">
          {capitalised(describeRecipe(remix.recipe, remix.recipe.outline ?? false))}
        </Text>
      )}
      {owner && <RenameRemix remix={remix} />}
      {owner && <RemixOwnerActions remix={remix} />}
    </Stack>
  )
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

/** Its owner renames it ("Waving Wumpus, your version" by default): its files are downloaded under the new name. */
function RenameRemix({ remix }: { remix: Wumpus }) {
  const rename = useRenameRemix(remix._id)
  const online = useOnline()
  const [name, setName] = useState<string | null>(null)
  if (name === null) {
    return (
      <Group gap="sm">
        <Button variant="subtle" size="compact-sm" onClick={() => setName(remix.name)} disabled={!online}>
          Rename
        </Button>
      </Group>
    )
  }
  const check = remixNameSchema.safeParse(name)
  const problem = check.success ? undefined : check.error.issues[0]?.message

  async function save() {
    if (!check.success) return
    try {
      await rename.mutateAsync(check.data)
      showToast({ color: 'green', message: 'Your version was renamed' })
      setName(null)
    } catch (error) {
      showToast({ color: 'red', title: 'Could not rename your version', message: errorMessage(error) })
    }
  }

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault()
        void save()
      }}
    >
      <Stack gap="xs">
        <TextInput
          label="Name of your version"
          description="Its files are named after it"
          value={name}
          maxLength={REMIX_NAME_MAX}
          maw={480}
          onChange={(event) => setName(event.currentTarget.value)}
          error={problem}
          autoFocus
        />
        <Group gap="sm">
          <Button type="submit" loading={rename.isPending} disabled={problem !== undefined || !online}>
            Save name
          </Button>
          <Button variant="default" onClick={() => setName(null)} disabled={rename.isPending}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  )
}

function RemixOwnerActions({ remix }: { remix: Wumpus & { remixOf: string } }) {
  const sharing = useRemixSharing(remix._id)
  const renewal = useRenewRemixKeys(remix._id)
  const remove = useDeleteRemix(remix)
  const navigate = useNavigate()
  const online = useOnline()
  const [confirming, setConfirming] = useState(false)
  const shared = remix.visibility === 'link'
  const url = new URL(`/wumpus/${remix._id}`, window.location.origin).href

  async function setShared(next: boolean) {
    try {
      await sharing.mutateAsync(next ? 'link' : 'private')
      showToast({ color: 'green', message: next ? 'Anyone with the link can see it now' : 'Only you can see it now' })
    } catch (error) {
      showToast({ color: 'red', title: 'Could not change who sees it', message: errorMessage(error) })
    }
  }

  async function renewLinks() {
    try {
      await renewal.mutateAsync()
      showToast({ color: 'green', message: 'New private links made: the ones copied before no longer open its files' })
    } catch (error) {
      showToast({ color: 'red', title: 'Could not renew the private links', message: errorMessage(error) })
    }
  }

  async function confirmDelete() {
    try {
      await remove.mutateAsync()
      showToast({ color: 'green', message: 'Your version was deleted' })
      await navigate({ to: '/dashboard/own' })
    } catch (error) {
      showToast({ color: 'red', title: 'Could not delete your version', message: errorMessage(error) })
    }
  }

  return (
    <>
      <Text size="sm">{shared ? 'Shared by link: anyone with the link can see it.' : 'Private: only you can see it.'}</Text>
      <Group gap="sm">
        <Button variant="light" onClick={() => void setShared(!shared)} disabled={sharing.isPending || !online}>
          {shared ? 'Make private' : 'Share by link'}
        </Button>
        {shared && <ShareButton title={remix.name} text={remix.description} url={url} />}
        {!shared && (
          <Button variant="light" onClick={() => void renewLinks()} disabled={renewal.isPending || !online}>
            Renew private links
          </Button>
        )}
        <Button variant="light" color="red" onClick={() => setConfirming(true)} disabled={!online}>
          Delete
        </Button>
      </Group>
      {!shared && (
        <Text size="xs" c="dimmed">
          Its files open by private links only you were shown. Renew them if one went somewhere it should not: the old links stop working.
        </Text>
      )}
      {!online && (
        <Alert color="gray" variant="light">
          Sharing, renewing links and deleting need the network.
        </Alert>
      )}
      <ConfirmDeleteModal
        name={confirming ? remix.name : null}
        consequence="Your version and all its files go for good. The original stays."
        pending={remove.isPending}
        online={online}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void confirmDelete()}
      />
    </>
  )
}
