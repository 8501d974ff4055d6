import { ActionIcon, Anchor, Badge, Button, Center, Stack, Text, TextInput, Title } from '@mantine/core'
import { errorMessage } from '../../../lib/error-message'
import { showToast } from '../../../lib/toast'
import { useSuspenseQuery } from '@tanstack/react-query'
import { useDeferredValue, useState } from 'react'
import type { User } from '../../../../contract/user'
import { isApiError } from '../../../lib/api-client'
import { revocationFailure } from '../../../lib/revocation-failed'
import { usePageTitle } from '../../../lib/page-title'
import { profilePath } from '../../../lib/paths'
import { useNeedsNetwork } from '../../../components/needs-network'
import { useEndSessions, useMakeAdmin, usersQueryOptions } from '../api'
import { SignOutIcon } from '../../../components/icons'
import { AdminTable, adminTableClasses as classes } from '../../../components/admin-table'
import { ConfirmModal } from '../../../components/confirm-modal'
import { EmailText } from './email-text'

/** Rows drawn at a time: the server sends every user, the page shows them in steps. */
export const USERS_STEP = 50

export const NOT_AUTHORIZED = 'You are not authorized to make this user an admin'
export const NOT_AUTHORIZED_SIGN_OUT = 'You are not authorized to sign this user out'

const displayName = (user: User) => user.user_name || user.email

/** The toast when a user's sessions ended but Firebase could not revoke their sign-ins (a 503 to try again). */
function notRevokedToast(name: string, endedCount: number | undefined) {
  const ended = endedCount === undefined ? 'Their sessions' : `${endedCount} ${endedCount === 1 ? 'session' : 'sessions'}`
  return {
    color: 'red',
    title: `Signed ${name} out everywhere, but their sign-ins were not revoked`,
    message: `${ended} ended, but their sign-ins could not be revoked: a device of theirs may still sign back in by itself. Please try again.`,
  }
}

/**
 * Dashboard → All users (admins): everyone, with a make-admin button for those who are not yet, and
 * "Sign out everywhere" for everyone but `me` (the signed-in admin, who has it on My profile).
 */
export function AllUsers({ me }: { me?: string }) {
  usePageTitle('All users')
  const users = useSuspenseQuery(usersQueryOptions())
  const makeAdmin = useMakeAdmin()
  const endSessions = useEndSessions()
  const [toSignOut, setToSignOut] = useState<User | null>(null)
  const network = useNeedsNetwork()
  const [search, setSearch] = useState('')
  const [shown, setShown] = useState(USERS_STEP)
  const [toPromote, setToPromote] = useState<User | null>(null)
  const query = useDeferredValue(search.trim().toLowerCase())

  const matching = query
    ? users.data.filter((user) => user.email.toLowerCase().includes(query) || user.user_name.toLowerCase().includes(query))
    : users.data
  const rows = matching.slice(0, shown)

  async function confirmPromotion() {
    if (!toPromote) return
    try {
      const { modifiedCount } = await makeAdmin.mutateAsync(toPromote.email)
      showToast(
        modifiedCount > 0
          ? { color: 'green', message: 'Made admin successfully' }
          : { color: 'yellow', message: `${displayName(toPromote)} is already an admin` },
      )
    } catch (error) {
      showToast({
        color: 'red',
        message: isApiError(error, 403) ? NOT_AUTHORIZED : errorMessage(error),
      })
    }
    setToPromote(null)
  }

  async function confirmSignOut() {
    if (!toSignOut) return
    try {
      const { endedCount } = await endSessions.mutateAsync(toSignOut.email)
      showToast(
        endedCount > 0
          ? { color: 'green', message: `Signed ${displayName(toSignOut)} out everywhere` }
          : { color: 'yellow', message: `${displayName(toSignOut)} was not signed in anywhere` },
      )
    } catch (error) {
      // A failed revocation still ended every session: say so, and that the revocation is to be tried again.
      const failure = revocationFailure(error)
      showToast(
        failure
          ? notRevokedToast(displayName(toSignOut), failure.endedCount)
          : { color: 'red', message: isApiError(error, 403) ? NOT_AUTHORIZED_SIGN_OUT : errorMessage(error) },
      )
    }
    setToSignOut(null)
  }

  return (
    <Stack gap="lg">
      <Title order={1}>All users</Title>
      {network.note}
      <TextInput
        label="Search users"
        placeholder="Name or email"
        type="search"
        value={search}
        onChange={(event) => {
          setSearch(event.currentTarget.value)
          setShown(USERS_STEP)
        }}
        maw={360}
      />
      {rows.length === 0 ? (
        <Text>{query ? 'No user matches this search.' : 'No users yet.'}</Text>
      ) : (
        <AdminTable
          label="Users"
          rows={rows}
          rowKey={(user) => user.email}
          numbered
          columns={[
            {
              header: 'Name',
              className: classes.name,
              cell: (user) => (
                <>
                  {user.user_name || (
                    <Text c="dimmed" span size="sm">
                      No name
                    </Text>
                  )}
                  <Text size="xs" c="dimmed" className={`${classes.email} ${classes.phoneOnly}`}>
                    <EmailText email={user.email} />
                  </Text>
                </>
              ),
            },
            {
              header: 'Email',
              headerClassName: classes.wideOnly,
              className: `${classes.email} ${classes.wideOnly}`,
              cell: (user) => <EmailText email={user.email} />,
            },
            {
              header: 'Profile',
              cell: (user) => (
                <Anchor href={profilePath(user.email)} size="sm" aria-label={`Profile of ${displayName(user)}`}>
                  Profile
                </Anchor>
              ),
            },
          ]}
          actions={(user) => (
            <>
              {user.role === 'admin' ? (
                <Badge variant="light">Admin</Badge>
              ) : (
                <Button
                  size="compact-sm"
                  variant="light"
                  disabled={!network.online}
                  onClick={() => setToPromote(user)}
                  aria-label={`Make ${displayName(user)} an admin`}
                >
                  Make admin
                </Button>
              )}
              {user.email !== me && (
                <ActionIcon
                  variant="light"
                  color="red"
                  size="lg"
                  className={classes.icon}
                  aria-label={`Sign ${displayName(user)} out everywhere`}
                  title="Sign out everywhere"
                  disabled={!network.online}
                  onClick={() => setToSignOut(user)}
                >
                  <SignOutIcon />
                </ActionIcon>
              )}
            </>
          )}
        />
      )}
      <Text role="status" size="sm" c="dimmed" ta="center">
        {rows.length > 0 && `Showing ${rows.length} of ${matching.length}`}
      </Text>
      {rows.length < matching.length && (
        <Center>
          <Button variant="default" onClick={() => setShown((count) => count + USERS_STEP)}>
            Show more
          </Button>
        </Center>
      )}

      <ConfirmModal
        title={toPromote ? `Make ${displayName(toPromote)} an admin?` : null}
        confirmLabel="Make admin"
        pending={makeAdmin.isPending}
        online={network.online}
        onCancel={() => setToPromote(null)}
        onConfirm={() => void confirmPromotion()}
      >
        Admins can add, edit and delete every animation and make other users admins. This app cannot take the role back.
      </ConfirmModal>

      <ConfirmModal
        title={toSignOut ? `Sign ${displayName(toSignOut)} out everywhere?` : null}
        confirmLabel="Sign out everywhere"
        color="red"
        pending={endSessions.isPending}
        online={network.online}
        onCancel={() => setToSignOut(null)}
        onConfirm={() => void confirmSignOut()}
      >
        Every session of theirs ends at once: they must sign in again on each device. Their account and animations stay as they are. The
        Activity log keeps who did it.
      </ConfirmModal>
    </Stack>
  )
}
