import { Anchor, Avatar, Group, Stack, Text, Title } from '@mantine/core'
import { useSuspenseQuery } from '@tanstack/react-query'
import { usePageTitle } from '../../../lib/page-title'
import { DEFAULT_AVATAR, DEFAULT_COVER, profileQueryOptions } from '../api'
import { ProfileAnimationCard } from './profile-animation-card'
import classes from './public-profile.module.css'
import { UserAnimationGrid } from '../../../entities/wumpus/user-animation-grid'

const isWebLink = (value: string) => /^https?:\/\/\S+$/i.test(value)

/** A contributor's public page: cover, photo, name, about, then their animations as Lottie previews. */
export function PublicProfile({ email }: { email: string }) {
  const { data: user } = useSuspenseQuery(profileQueryOptions(email))
  usePageTitle(user.user_name || 'Profile')

  const name = user.user_name || 'this user'
  return (
    <Stack gap="xl">
      <header>
        <img className={classes.cover} src={user.cover || DEFAULT_COVER} alt="" data-testid="profile-cover" />
        <Group className={classes.identity} align="flex-end" gap="md" wrap="wrap">
          <Avatar src={user.photo || DEFAULT_AVATAR} alt={`Photo of ${name}`} size={120} radius={120} className={classes.avatar} />
          <Stack gap={2} pb={4} style={{ flex: '1 1 200px', minWidth: 0 }}>
            <Title order={1}>{user.user_name || 'Unnamed contributor'}</Title>
            {user.job && <Text c="dimmed">{user.job}</Text>}
          </Stack>
        </Group>
        <Stack gap="xs" mt="md" px={{ base: 'xs', xs: 'lg' }} maw={760}>
          {user.description && <Text style={{ whiteSpace: 'pre-line' }}>{user.description}</Text>}
          {isWebLink(user.url) && (
            <Anchor href={user.url} target="_blank" rel="noopener noreferrer nofollow ugc" size="sm" w="fit-content">
              {user.url.replace(/^https?:\/\//i, '')}
            </Anchor>
          )}
        </Stack>
      </header>

      <section aria-labelledby="profile-animations-heading">
        <Title order={2} id="profile-animations-heading" mb="md">
          Animation from {name}
        </Title>
        <UserAnimationGrid
          email={email}
          label={`Animations by ${name}`}
          cols={{ base: 1, sm: 2, lg: 4 }}
          emptyMessage="Looks like user don't have any animation"
          renderItem={(wumpus) => <ProfileAnimationCard key={wumpus._id} wumpus={wumpus} />}
        />
      </section>
    </Stack>
  )
}
