import { Alert, Anchor, Card, Checkbox, Group, Stack, Text, Textarea, TextInput, Title } from '@mantine/core'
import { useForm } from '@mantine/form'
import { showToast } from '../../../lib/toast'
import { useSuspenseQuery } from '@tanstack/react-query'
import { useCallback, useEffect, useState } from 'react'
import { errorMessage, fieldErrors } from '../../../lib/error-message'
import { TAGS_MAX } from '../../../../contract/search'
import type { Wumpus } from '../../../../contract/wumpus'
import { AnchorLink } from '../../../components/router-links'
import { isApiError } from '../../../lib/api-client'
import { usePageTitle } from '../../../lib/page-title'
import { wumpusQueryOptions } from '../../../entities/wumpus/api'
import { useUpdateWumpus } from '../api'
import { SubmitRow } from '../../../components/submit-row'
import { useAnimationFiles } from '../use-animation-files'
import { editWumpusValues, showListProblems, validateEdit, wumpusChanges, type EditWumpusValues, type NewFileIds } from '../wumpus-changes'
import { EmojiField } from '../../../entities/wumpus/emoji-field'
import { KeywordsField } from '../../../entities/wumpus/keywords-field'
import { AnimationFilesFields } from './animation-files-fields'
import { ExportStatus } from './export-status'
import { TagsField } from '../../../entities/wumpus/tags-field'
import classes from './animation-preview.module.css'
import { stickerAlt } from '../../../../contract/sticker-alt'

export const EDIT_REFUSAL = 'Only admins and the uploader can edit this animation'

interface EditWumpusPageProps {
  id: string
  /** The signed-in user. */
  email: string
  isAdmin: boolean
}

/** /editWumpus/{id}: the add form's fields, all optional, for admins and the animation's uploader. */
export function EditWumpusPage({ id, email, isAdmin }: EditWumpusPageProps) {
  const { data: wumpus } = useSuspenseQuery(wumpusQueryOptions(id))
  usePageTitle(`Edit ${wumpus.name}`)
  const canEdit = isAdmin || wumpus.u_email?.toLowerCase() === email.toLowerCase()
  const [savedAt, setSavedAt] = useState<number | null>(null)

  return (
    <Stack gap="lg" maw={760}>
      <AnchorLink to="/wumpus/$id" params={{ id }} size="sm">
        ← Back to {wumpus.name}
      </AnchorLink>
      <Title order={1}>Edit animation</Title>
      {canEdit ? (
        <>
          {savedAt !== null && (
            <Alert color="green" variant="light" title="Changes saved" role="status">
              <Text size="sm">
                {wumpus.name} is up to date. A new Lottie also renews its previews and chat app files, listed below.{' '}
                <AnchorLink to="/wumpus/$id" params={{ id }} size="sm">
                  View animation
                </AnchorLink>
              </Text>
            </Alert>
          )}
          {/* A fresh form after each save: it starts from the saved values, with no files chosen. */}
          <EditWumpusForm key={savedAt ?? 0} wumpus={wumpus} onSaved={() => setSavedAt(Date.now())} />
          <ExportStatus id={wumpus._id} />
        </>
      ) : (
        <Alert color="red" variant="light" role="alert" title="You cannot edit this animation">
          <Text size="sm">
            {EDIT_REFUSAL}. It was uploaded by {wumpus.u_name || wumpus.u_email}.
          </Text>
        </Alert>
      )}
    </Stack>
  )
}

function EditWumpusForm({ wumpus, onSaved }: { wumpus: Wumpus; onSaved: () => void }) {
  const files = useAnimationFiles()
  const update = useUpdateWumpus(wumpus._id)
  const [submitted, setSubmitted] = useState(false)
  // Stable rules keep form.validate stable, so the effect below runs only when the values change.
  const rules = useCallback((values: EditWumpusValues) => validateEdit(wumpus, values), [wumpus])
  const form = useForm<EditWumpusValues>({
    initialValues: editWumpusValues(wumpus),
    validate: rules,
    clearInputErrorOnChange: false,
  })

  // Like the add form: checked on submit, then again on every change.
  const { validate: validateValues, values } = form
  useEffect(() => {
    if (submitted) validateValues()
  }, [submitted, values, validateValues])

  const submit = form.onSubmit(async (values) => {
    const newFiles: NewFileIds = { gif: files.gif.id, apng: files.apng.id }
    const lottieGiven = files.lottie.id !== '' || values.lottieLink.trim() !== ''
    if (lottieGiven) {
      const lottieId = await files.resolveLottie(values.lottieLink)
      if (!lottieId) return // the link's problem shows under it
      newFiles.lottie = lottieId
    }
    const changes = wumpusChanges(wumpus, values, newFiles)
    if (Object.keys(changes).length === 0) {
      showToast({ color: 'yellow', message: 'Nothing to update: no field was changed' })
      return
    }
    try {
      await update.mutateAsync(changes)
      showToast({ color: 'green', message: 'Animation updated' })
      onSaved()
    } catch (error) {
      const problems = fieldErrors(error)
      if (problems.name) form.setFieldError('name', problems.name)
      if (problems.description) form.setFieldError('description', problems.description)
      showListProblems(problems, form.setFieldError)
      const message = isApiError(error, 403) ? EDIT_REFUSAL : errorMessage(error)
      showToast({ color: 'red', title: 'Could not update the animation', message })
    }
  })

  return (
    <Card withBorder shadow="sm" padding="lg" component="section" aria-label={`Edit ${wumpus.name}`}>
      <form
        noValidate
        onSubmit={(event) => {
          setSubmitted(true)
          submit(event)
        }}
      >
        <Stack gap="md">
          <Group gap="sm" wrap="nowrap" align="center">
            <div className={classes.frame}>
              <img src={wumpus.gif} alt={`${stickerAlt(wumpus)} (current GIF)`} width={120} height={120} />
            </div>
            <Stack gap={4}>
              <Text size="sm">Empty fields keep what the animation has now.</Text>
              <Group gap="sm">
                <Anchor href={wumpus.gif} target="_blank" rel="noopener noreferrer" size="sm">
                  Current GIF
                </Anchor>
                <Anchor href={wumpus.apng} target="_blank" rel="noopener noreferrer" size="sm">
                  Current APNG
                </Anchor>
                <Anchor href={wumpus.lottie} target="_blank" rel="noopener noreferrer" size="sm">
                  Current Lottie
                </Anchor>
              </Group>
            </Stack>
          </Group>
          <TextInput label="Animation name" placeholder={wumpus.name} autoComplete="off" {...form.getInputProps('name')} />
          <Textarea
            label="Animation description"
            placeholder={wumpus.description}
            rows={3}
            resize="vertical"
            {...form.getInputProps('description')}
          />
          <TagsField
            value={form.values.tags}
            onChange={(tags) => form.setFieldValue('tags', tags)}
            errors={form.errors}
            description={`At most ${TAGS_MAX}, lower case; removing them all leaves the animation without tags`}
          />
          {wumpus.emoji.length === 0 && (
            <Alert color="yellow" variant="light" title="No emoji yet">
              <Text size="sm">Chat apps want at least one emoji per sticker: pick the ones people would send it for.</Text>
            </Alert>
          )}
          <EmojiField value={form.values.emoji} onChange={(emoji) => form.setFieldValue('emoji', emoji)} errors={form.errors} />
          <KeywordsField
            value={form.values.keywords}
            onChange={(keywords) => form.setFieldValue('keywords', keywords)}
            errors={form.errors}
          />
          <Checkbox
            label="Sensitive"
            description="Hidden from the gallery and search for everyone who has not turned on sensitive stickers in their profile; its page still opens by link, labelled."
            {...form.getInputProps('sensitive', { type: 'checkbox' })}
          />
          <AnimationFilesFields
            files={files}
            required={false}
            link={form.values.lottieLink}
            linkInputProps={form.getInputProps('lottieLink')}
          />
          <SubmitRow loading={form.submitting} disabled={files.busy}>
            Save changes
          </SubmitRow>
        </Stack>
      </form>
    </Card>
  )
}
