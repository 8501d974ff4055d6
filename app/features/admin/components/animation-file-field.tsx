import { FileInput, Progress, Stack, Text } from '@mantine/core'
import type { ComponentProps, ReactNode } from 'react'
import type { MediaFormat } from '../../../../contract/limits'
import { FORMAT_LABEL } from '../../../../contract/format-labels'
import type { AnimationUpload } from '../use-animation-upload'
import { AnimationPreview } from './animation-preview'

export const ACCEPT: Record<MediaFormat, string> = {
  gif: '.gif,image/gif',
  apng: '.png,.apng,image/png,image/apng',
  lottie: '.json,application/json',
}

interface AnimationFileFieldProps {
  upload: AnimationUpload
  label: string
  /** The form's own message (e.g. '.gif file is required'); a refusal of the chosen file wins. */
  error?: ReactNode
  description?: ReactNode
  /** False when the preview shows elsewhere (the Lottie's, below both of its inputs). */
  showResult?: boolean
}

/** A file input that uploads at once, with progress, the server's refusal, or a preview and its facts. */
export function AnimationFileField({ upload, label, error, description, showResult = true }: AnimationFileFieldProps) {
  const { state, chosen, select, format } = upload
  const fromFile = state.status !== 'idle' && state.source === 'file'
  const refusal = fromFile && state.status === 'error' ? state.message : undefined

  return (
    <Stack gap={6}>
      <FileInput
        label={label}
        description={description}
        placeholder={`Choose a ${ACCEPT[format].split(',')[0]} file`}
        accept={ACCEPT[format]}
        value={chosen}
        onChange={(file) => void select(file)}
        clearable
        error={refusal ?? error}
        fileInputProps={{ 'data-testid': `${format}-file` } as ComponentProps<'input'>}
      />
      {fromFile && state.status === 'working' && <UploadProgress label={FORMAT_LABEL[format]} progress={state.progress} />}
      {showResult && state.status === 'ready' && <AnimationPreview file={state.file} source={state.source} />}
    </Stack>
  )
}

/** A bar with the fraction sent; indeterminate (full and moving) when nothing can be measured. */
export function UploadProgress({ label, progress, message }: { label: string; progress: number | null; message?: string }) {
  const percent = progress === null ? 100 : Math.max(4, Math.round(progress * 100))
  const text = message ?? (progress === null || progress >= 1 ? 'Checking the file…' : `Uploading… ${Math.round(progress * 100)}%`)
  return (
    <Stack gap={4}>
      <Progress value={percent} animated striped={progress === null} aria-label={`Uploading ${label}`} />
      <Text size="xs" c="dimmed" role="status">
        {text}
      </Text>
    </Stack>
  )
}
