import { Avatar, Card, Grid, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core'
import { errorMessage } from '../../../lib/error-message'
import { schemaResolver, useForm } from '@mantine/form'
import { showToast } from '../../../lib/toast'
import { useSuspenseQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { profileUpdateSchema, type PublicProfile } from '../../../../contract/user'
import { maskEmail } from '../../../lib/mask-email'
import { usePageTitle } from '../../../lib/page-title'
import { SubmitRow } from '../../../components/submit-row'
import { DEFAULT_AVATAR, profileQueryOptions, useUpdateProfile, useUpdateSensitivePreference } from '../api'
import { profileChanges, profileFormValues, type ProfileFormValues } from '../profile-changes'
import { ImageUploadField, useImageUpload } from './image-upload-field'
import classes from './my-profile.module.css'
import { VerifyEmailFirst } from '../../../components/verify-email-first'

interface MyProfileProps {
  /** The signed-in user's email. */
  email: string
  /** Whether the session's email is verified: the server takes profile changes only then. */
  emailVerified?: boolean
  /** Receives the renewed session token after an update (its claims carry the new name): the session's setToken. */
  onTokenRenewed: (token: string) => void
  /** Shown under the profile's summary (the route puts "Sign out everywhere" there). */
  aside?: ReactNode
}

/** Dashboard → My profile: what others see of you, and the form to change it. */
export function MyProfile({ email, emailVerified = true, onTokenRenewed, aside }: MyProfileProps) {
  usePageTitle('My profile')
  const { data: user } = useSuspenseQuery(profileQueryOptions(email))

  return (
    <Stack gap="lg">
      <Title order={1}>My profile</Title>
      <Grid gap="lg" align="flex-start">
        <Grid.Col span={{ base: 12, md: 5, lg: 4 }}>
          <Stack gap="lg">
            <ProfileSummary user={user} />
            {aside}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7, lg: 8 }}>
          <Stack gap="lg">
            <ProfileForm email={email} user={user} emailVerified={emailVerified} onTokenRenewed={onTokenRenewed} />
            <SensitivePreference
              email={email}
              showSensitive={'showSensitive' in user && user.showSensitive === true}
              emailVerified={emailVerified}
              onTokenRenewed={onTokenRenewed}
            />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  )
}

function ProfileSummary({ user }: { user: PublicProfile }) {
  return (
    <Card withBorder shadow="sm" padding="lg" component="section" aria-label="Your profile">
      <Stack align="center" gap="xs" ta="center">
        <Avatar src={user.photo || DEFAULT_AVATAR} alt="Your photo" size={120} radius={120} />
        <Title order={2} size="h3" className={classes.value}>
          {user.user_name || 'N/A'}
        </Title>
        <Text c="dimmed" className={classes.value}>
          {maskEmail(user.email)}
        </Text>
      </Stack>
      <Stack gap="sm" mt="lg" component="dl" m={0}>
        <SummaryRow term="About" value={user.description} />
        <SummaryRow term="Job" value={user.job} />
      </Stack>
    </Card>
  )
}

function SummaryRow({ term, value }: { term: string; value: string }) {
  return (
    <div>
      <Text component="dt" size="sm" fw={600}>
        {term}
      </Text>
      <Text component="dd" m={0} className={classes.value}>
        {value || 'N/A'}
      </Text>
    </div>
  )
}

/** "Show sensitive stickers": saved as soon as it is switched; the gallery and searches are asked again. */
function SensitivePreference({
  email,
  showSensitive,
  emailVerified,
  onTokenRenewed,
}: {
  email: string
  showSensitive: boolean
  emailVerified: boolean
  onTokenRenewed: (token: string) => void
}) {
  const update = useUpdateSensitivePreference(email, { onTokenRenewed })
  const checked = update.isPending && update.variables !== undefined ? update.variables : showSensitive
  const toggle = async (next: boolean) => {
    try {
      await update.mutateAsync(next)
      showToast({ color: 'green', message: next ? 'Sensitive stickers are shown' : 'Sensitive stickers are hidden' })
    } catch (error) {
      showToast({ color: 'red', title: 'Could not change this setting', message: errorMessage(error, 'Please try again.') })
    }
  }
  return (
    <Card withBorder shadow="sm" padding="lg" component="section" aria-labelledby="sensitive-heading">
      <Title order={2} size="h3" id="sensitive-heading" mb="md">
        Sensitive stickers
      </Title>
      <Switch
        label="Show sensitive stickers"
        description="Stickers their maker or an admin marked sensitive stay out of the gallery and search unless you turn this on. A link to one still opens it, labelled Sensitive."
        checked={checked}
        disabled={!emailVerified || update.isPending}
        onChange={(event) => void toggle(event.currentTarget.checked)}
      />
    </Card>
  )
}

const validateChanges = schemaResolver(profileUpdateSchema, { sync: true })

function ProfileForm({
  email,
  user,
  emailVerified,
  onTokenRenewed,
}: {
  email: string
  user: PublicProfile
  emailVerified: boolean
  onTokenRenewed: (token: string) => void
}) {
  const photo = useImageUpload()
  const cover = useImageUpload()
  const update = useUpdateProfile(email, { onTokenRenewed })
  const form = useForm<ProfileFormValues>({
    initialValues: profileFormValues(user),
    // Only what will be sent is checked, so an old value the rules now refuse does not block other edits.
    validate: (values) => validateChanges(profileChanges(user, values)),
  })
  const uploading = photo.busy || cover.busy

  const submit = form.onSubmit(async (values) => {
    const changes = profileChanges(user, values, { photo: photo.url, cover: cover.url })
    if (Object.keys(changes).length === 0) {
      showToast({ color: 'yellow', message: 'Profile not updated' })
      return
    }
    try {
      const result = await update.mutateAsync(changes)
      showToast(
        result.modifiedCount > 0 ? { color: 'green', message: 'Profile updated' } : { color: 'yellow', message: 'Profile not updated' },
      )
      form.setInitialValues(profileFormValues(result.user))
      form.setValues(profileFormValues(result.user))
      photo.reset()
      cover.reset()
    } catch (error) {
      showToast({
        color: 'red',
        title: 'Could not update your profile',
        message: errorMessage(error, 'Please try again.'),
      })
    }
  })

  return (
    <Card withBorder shadow="sm" padding="lg" component="section" aria-labelledby="profile-form-heading">
      <Title order={2} size="h3" id="profile-form-heading" mb="md">
        Update your profile
      </Title>
      {!emailVerified && <VerifyEmailFirst mb="md">Your profile can be changed once your email address is verified.</VerifyEmailFirst>}
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput label="Name" autoComplete="name" {...form.getInputProps('user_name')} />
          <TextInput label="Custom Url" type="url" placeholder="https://" autoComplete="url" {...form.getInputProps('url')} />
          <Textarea label="About you" rows={4} resize="vertical" {...form.getInputProps('description')} />
          <TextInput label="Job" autoComplete="organization-title" {...form.getInputProps('job')} />
          <ImageUploadField upload={photo} label="Photo" shape="round" note={photo.busy ? <WaitNote /> : undefined} />
          <ImageUploadField upload={cover} label="Cover" shape="wide" note={cover.busy ? <WaitNote /> : undefined} />
          <SubmitRow loading={update.isPending} disabled={uploading || !emailVerified}>
            Update Profile
          </SubmitRow>
        </Stack>
      </form>
    </Card>
  )
}

/** The spec's red note, shown while an image uploads or loads (Update Profile waits meanwhile). */
function WaitNote() {
  return (
    <Text size="sm" className={classes.note} role="status">
      Please wait for the uploaded image to load before you click Update Profile.
    </Text>
  )
}
