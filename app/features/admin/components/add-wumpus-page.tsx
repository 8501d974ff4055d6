import { Alert, Button, Card, Checkbox, Group, Stack, Text, Textarea, TextInput, Title } from '@mantine/core'
import { showToast } from '../../../lib/toast'
import { useEffect, useState } from 'react'
import { errorMessage, fieldErrors } from '../../../lib/error-message'
import { FORMAT_LABEL } from '../../../../contract/format-labels'
import { TAG_MAX_LENGTH, TAGS_MAX } from '../../../../contract/search'
import type { Wumpus } from '../../../../contract/wumpus'
import { ButtonLink } from '../../../components/router-links'
import { addWumpusFormSchema, type AddWumpusForm } from '../../../../contract/wumpus-write'
import { usePageTitle } from '../../../lib/page-title'
import { useSchemaForm } from '../../../lib/use-schema-form'
import { SubmitRow } from '../../../components/submit-row'
import { useCreateWumpus } from '../api'
import { useAnimationFiles } from '../use-animation-files'
import { AnimationFilesFields } from './animation-files-fields'
import { ExportStatus } from './export-status'
import { EmojiField } from '../../../entities/wumpus/emoji-field'
import { KeywordsField } from '../../../entities/wumpus/keywords-field'
import { showListProblems } from '../wumpus-changes'
import { TagsField } from '../../../entities/wumpus/tags-field'

const EMPTY: AddWumpusForm = {
  name: '',
  description: '',
  lottieLink: '',
  lottieFile: '',
  apng: '',
  gif: '',
  tags: [],
  emoji: [],
  keywords: [],
  sensitive: false,
}

/**
 * Dashboard → Add animation (admins). Files upload as soon as they are chosen; Publish creates the
 * animation, and the page then follows its platform exports as the server makes them.
 */
export function AddWumpusPage() {
  usePageTitle('Add animation')
  const [published, setPublished] = useState<Wumpus | null>(null)
  if (published) return <Published wumpus={published} onAddAnother={() => setPublished(null)} />
  return <AddWumpusForm onPublished={setPublished} />
}

function Published({ wumpus, onAddAnother }: { wumpus: Wumpus; onAddAnother: () => void }) {
  return (
    <Stack gap="lg" maw={760}>
      <Title order={1}>Add animation</Title>
      <Alert color="green" variant="light" title={`${wumpus.name} is published`}>
        <Text size="sm">
          It is in the gallery now. Its card previews and chat app files are made from the Lottie in the background and show up below as
          they are ready.
        </Text>
        <Group mt="sm">
          <ButtonLink to="/wumpus/$id" params={{ id: wumpus._id }} size="sm">
            View animation
          </ButtonLink>
          <Button size="sm" variant="default" onClick={onAddAnother}>
            Add another
          </Button>
        </Group>
      </Alert>
      <ExportStatus id={wumpus._id} />
    </Stack>
  )
}

function AddWumpusForm({ onPublished }: { onPublished: (wumpus: Wumpus) => void }) {
  const files = useAnimationFiles()
  const create = useCreateWumpus()
  const { form, onSubmit } = useSchemaForm<AddWumpusForm>(addWumpusFormSchema, EMPTY)

  // The schema sees the uploads as the ids the server gave them.
  const { lottie, apng, gif } = files
  const lottieFileId = lottie.state.status === 'ready' && lottie.state.source === 'file' ? lottie.id : ''
  // setFieldValue is stable (useSchemaForm keeps its rules stable).
  const { setFieldValue } = form
  useEffect(() => setFieldValue('lottieFile', lottieFileId), [setFieldValue, lottieFileId])
  useEffect(() => setFieldValue('apng', apng.id), [setFieldValue, apng.id])
  useEffect(() => setFieldValue('gif', gif.id), [setFieldValue, gif.id])

  const { values } = form
  const lottieGiven = lottieFileId !== '' || values.lottieLink.trim() !== ''
  const missing = [gif.id === '' && FORMAT_LABEL.gif, apng.id === '' && FORMAT_LABEL.apng].filter(Boolean).join(' and ')
  const awaitingRender = lottieGiven && missing !== ''

  const submit = onSubmit(async (valid) => {
    const lottieId = await files.resolveLottie(valid.lottieLink)
    if (!lottieId) return // the link's problem shows under it
    try {
      const created = await create.mutateAsync({
        name: valid.name.trim(),
        description: valid.description.trim(),
        tags: valid.tags,
        emoji: valid.emoji,
        keywords: valid.keywords,
        sensitive: valid.sensitive,
        files: { gif: valid.gif, apng: valid.apng, lottie: lottieId },
      })
      showToast({ color: 'green', message: 'Animation added' })
      onPublished(created)
    } catch (error) {
      const problems = fieldErrors(error)
      if (problems.name) form.setFieldError('name', problems.name)
      if (problems.description) form.setFieldError('description', problems.description)
      showListProblems(problems, form.setFieldError)
      showToast({ color: 'red', title: 'Could not add the animation', message: errorMessage(error) })
    }
  })

  return (
    <Stack gap="lg" maw={760}>
      <Title order={1}>Add animation</Title>
      <Card withBorder shadow="sm" padding="lg" component="section" aria-label="New animation">
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <TextInput label="Animation name*" autoComplete="off" {...form.getInputProps('name')} />
            <Textarea label="Animation description*" rows={3} resize="vertical" {...form.getInputProps('description')} />
            <TagsField
              value={values.tags}
              onChange={(tags) => form.setFieldValue('tags', tags)}
              errors={form.errors}
              description={`Words people would search for, at most ${TAGS_MAX}: lower case, 2 to ${TAG_MAX_LENGTH} characters`}
            />
            <EmojiField value={values.emoji} onChange={(emoji) => form.setFieldValue('emoji', emoji)} errors={form.errors} required />
            <KeywordsField value={values.keywords} onChange={(keywords) => form.setFieldValue('keywords', keywords)} errors={form.errors} />
            <Checkbox
              label="Sensitive"
              description="Hidden from the gallery and search for everyone who has not turned on sensitive stickers in their profile; its page still opens by link, labelled."
              {...form.getInputProps('sensitive', { type: 'checkbox' })}
            />
            <AnimationFilesFields
              files={files}
              required
              link={values.lottieLink}
              linkInputProps={form.getInputProps('lottieLink')}
              errors={{ apng: form.errors.apng, gif: form.errors.gif }}
            />
            {awaitingRender && !files.busy && (
              <Text size="sm" c="dimmed" role="status">
                Generate the {missing} from the Lottie, or upload {missing.includes(' and ') ? 'them' : 'it'}, to publish.
              </Text>
            )}
            <SubmitRow loading={form.submitting} disabled={files.busy || awaitingRender}>
              Publish
            </SubmitRow>
          </Stack>
        </form>
      </Card>
    </Stack>
  )
}
