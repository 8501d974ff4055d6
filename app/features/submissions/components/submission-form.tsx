import { FileInput, Group, Progress, Radio, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core'
import { useEffect, useState, type ComponentProps } from 'react'
import { LICENCE_LABELS } from '../../../../contract/licence'
import { TAG_MAX_LENGTH, TAGS_MAX } from '../../../../contract/search'
import type { Submission } from '../../../../contract/submissions'
import { SubmitRow } from '../../../components/submit-row'
import { EmojiField } from '../../../entities/wumpus/emoji-field'
import { KeywordsField } from '../../../entities/wumpus/keywords-field'
import { TagsField } from '../../../entities/wumpus/tags-field'
import { errorMessage, fieldErrors } from '../../../lib/error-message'
import { forgetSubmissionDraft, keepSubmissionDraft, readSubmissionDraft } from '../../../lib/local-data/submission-drafts'
import type { LottieJson } from '../../../lib/lottie-json'
import { readStickerFile } from '../../../lib/sticker-file'
import { showToast } from '../../../lib/toast'
import { useDebouncedCallback } from '../../../lib/use-debounced-callback'
import { useSchemaForm } from '../../../lib/use-schema-form'
import { useSendSubmission } from '../api'
import { emptySubmission, submissionFormSchema, submissionValues, type SubmissionValues } from '../submission-values'
import { StickerPreview } from './sticker-preview'

interface Picked {
  file: Blob
  name: string
  lottie?: LottieJson
  problem?: string
}

interface SubmissionFormProps {
  /** Whose draft this is (new submissions keep one on the device) and the credit it starts with. */
  user: { email: string; name: string }
  /** Editing one sent before (waiting, or asked to change); otherwise a new one. */
  submission?: Submission
  onSent: (id: string) => void
}

const DRAFT_SAVE_MS = 400

/**
 * A sticker sent for review: its file (played at once, before it is sent), its words, who made it and under
 * which licence it travels. A new one is kept on this device as it is written, so a reload loses nothing.
 */
export function SubmissionForm({ user, submission, onSent }: SubmissionFormProps) {
  const { form, onSubmit } = useSchemaForm<SubmissionValues>(
    submissionFormSchema,
    submission ? submissionValues(submission) : emptySubmission(user.name),
  )
  const send = useSendSubmission(submission?.id)
  const [picked, setPicked] = useState<Picked | null>(null)
  const [pickCount, setPickCount] = useState(0)
  const [progress, setProgress] = useState<number | null>(null)
  const { values, setValues, setFieldValue } = form

  // A new submission: the draft this device kept comes back once.
  const [draftRead, setDraftRead] = useState(Boolean(submission))
  useEffect(() => {
    if (submission) return
    let live = true
    void readSubmissionDraft<SubmissionValues>(user.email).then(async (draft) => {
      if (!live) return
      if (draft) {
        setValues(draft.fields)
        if (draft.file) await pick(draft.file.blob, draft.file.name)
      }
      setDraftRead(true)
    })
    return () => {
      live = false
    }
    // Once, when the form opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  const saveDraft = useDebouncedCallback((fields: SubmissionValues, file: Picked | null) => {
    void keepSubmissionDraft(user.email, { fields, file: file ? { blob: file.file, name: file.name } : undefined })
  }, DRAFT_SAVE_MS)
  useEffect(() => {
    if (!submission && draftRead) saveDraft(values, picked)
  }, [submission, draftRead, values, picked, saveDraft])

  async function pick(file: Blob, name: string) {
    setPickCount((count) => count + 1)
    try {
      const { lottie } = await readStickerFile(file)
      setPicked({ file, name, lottie })
      setFieldValue('file', name)
      form.clearFieldError('file')
    } catch (error) {
      setPicked({ file, name, problem: error instanceof Error ? error.message : String(error) })
      setFieldValue('file', '')
      form.setFieldError('file', error instanceof Error ? error.message : String(error))
    }
  }

  const submit = onSubmit(async (valid) => {
    if (picked?.problem) return
    setProgress(0)
    try {
      const { id } = await send.mutateAsync({
        values: valid,
        file: picked?.file,
        fileName: picked?.name ?? 'sticker',
        onProgress: setProgress,
      })
      saveDraft.cancel()
      if (!submission) await forgetSubmissionDraft(user.email)
      showToast({ color: 'green', message: submission ? 'Submission updated: it waits for review' : 'Sent for review' })
      onSent(id)
    } catch (error) {
      const problems = fieldErrors(error)
      for (const field of ['file', 'name', 'description', 'licence', 'credit', 'source', 'original', 'sensitive'])
        if (problems[field]) form.setFieldError(field, problems[field])
      for (const field of ['tags', 'emoji', 'keywords']) {
        const problem = Object.entries(problems).find(([path]) => path === field || path.startsWith(`${field}.`))
        if (problem) form.setFieldError(field, problem[1])
      }
      showToast({
        color: 'red',
        title: submission ? 'Could not save the submission' : 'Could not send the sticker',
        message: errorMessage(error),
      })
    } finally {
      setProgress(null)
    }
  })

  const label = values.name.trim() || 'Your sticker'
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Group align="flex-start" gap="md">
          <StickerPreview key={pickCount} data={picked?.lottie} url={picked ? undefined : submission?.lottie} label={label} />
          <Stack gap="xs" style={{ flex: '1 1 220px', minWidth: 0 }}>
            <FileInput
              label={submission ? 'A new file (optional)' : 'Sticker file*'}
              description="A Lottie JSON, a Telegram .tgs or a .lottie file, up to 2 MB"
              placeholder={picked?.name ?? (submission ? 'Keep the file sent before' : 'Choose a file')}
              value={null}
              onChange={(file) => file && void pick(file, file.name)}
              error={form.errors.file}
              clearable={false}
              // No `accept`: phones' pickers grey out .tgs and .lottie, which have no MIME type of their own. The bytes decide.
              fileInputProps={{ 'data-testid': 'sticker-file' } as ComponentProps<'input'>}
            />
            {picked?.lottie && (
              <Text size="sm" c="dimmed" role="status">
                {picked.name} plays as shown. The gallery makes every chat app&apos;s file from it once it is published.
              </Text>
            )}
          </Stack>
        </Group>
        <TextInput label="Animation name*" autoComplete="off" {...form.getInputProps('name')} />
        <Textarea label="Animation description*" rows={3} resize="vertical" {...form.getInputProps('description')} />
        <TagsField
          value={values.tags}
          onChange={(tags) => setFieldValue('tags', tags)}
          errors={form.errors}
          description={`Words people would search for, at most ${TAGS_MAX}: lower case, 2 to ${TAG_MAX_LENGTH} characters`}
        />
        <EmojiField value={values.emoji} onChange={(emoji) => setFieldValue('emoji', emoji)} errors={form.errors} required max={3} />
        <KeywordsField value={values.keywords} onChange={(keywords) => setFieldValue('keywords', keywords)} errors={form.errors} />
        <Radio.Group label="Who made it?*" {...form.getInputProps('original')}>
          <Stack gap={6} mt={6}>
            <Radio value="mine" label="I made this" />
            <Radio value="other" label="Made by someone else" />
          </Stack>
        </Radio.Group>
        <TextInput
          label={values.original === 'other' ? 'Credit*' : 'Credit'}
          description="The maker's name as it should travel with the sticker"
          autoComplete="off"
          {...form.getInputProps('credit')}
        />
        <TextInput
          label="Source link"
          description="Where the sticker comes from, if it is published elsewhere"
          type="url"
          autoComplete="off"
          {...form.getInputProps('source')}
        />
        <Radio.Group label="Licence*" description="How others may reuse it" {...form.getInputProps('licence')}>
          <Stack gap={6} mt={6}>
            {LICENCE_LABELS.map(({ key, label }) => (
              <Radio key={key} value={key} label={label} />
            ))}
          </Stack>
        </Radio.Group>
        <Switch
          label="Sensitive"
          description="Not for everyone: hidden unless people choose to see sensitive stickers"
          {...form.getInputProps('sensitive', { type: 'checkbox' })}
        />
        {progress !== null && <Progress value={progress * 100} aria-label="Sending the sticker" />}
        <SubmitRow loading={form.submitting}>{submission ? 'Save and send for review' : 'Send for review'}</SubmitRow>
      </Stack>
    </form>
  )
}
