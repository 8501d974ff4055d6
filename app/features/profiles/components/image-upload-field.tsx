import { Avatar, FileInput, Group, Image, Loader, Progress, Stack, Text } from '@mantine/core'
import { showToast } from '../../../lib/toast'
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react'
import { errorMessage } from '../../../lib/error-message'
import { MAX_IMAGE_BYTES } from '../../../../contract/limits'
import { IMAGE_ACCEPT, uploadImage } from '../../../lib/upload'

const IMAGE_TYPES = new Set(['image/png', 'image/gif', 'image/jpeg', 'image/webp'])
const IMAGE_EXTENSIONS = /\.(png|gif|jpe?g|webp)$/i

export type ImageUploadState =
  | { status: 'idle' }
  | { status: 'uploading'; progress: number }
  /** Uploaded; the preview is still loading, so the image is not ready to use yet. */
  | { status: 'loading'; url: string }
  | { status: 'ready'; url: string }
  | { status: 'error'; message: string }

/** Uploads an image as soon as it is chosen and follows it until its preview has loaded. */
export function useImageUpload() {
  const [state, setState] = useState<ImageUploadState>({ status: 'idle' })
  const [file, setFile] = useState<File | null>(null)
  const controller = useRef<AbortController | null>(null)

  useEffect(() => () => controller.current?.abort(), [])

  const select = useCallback(async (chosen: File | null) => {
    controller.current?.abort()
    controller.current = null
    setFile(chosen)
    if (!chosen) {
      setState({ status: 'idle' })
      return
    }
    const problem = checkImage(chosen)
    if (problem) {
      setState({ status: 'error', message: problem })
      return
    }
    const current = new AbortController()
    controller.current = current
    setState({ status: 'uploading', progress: 0 })
    try {
      const { url } = await uploadImage(
        chosen,
        (progress) => {
          if (!current.signal.aborted) setState({ status: 'uploading', progress })
        },
        { signal: current.signal },
      )
      if (!current.signal.aborted) setState({ status: 'loading', url })
    } catch (error) {
      if (current.signal.aborted) return
      const message = errorMessage(error, 'The image could not be uploaded.')
      setState({ status: 'error', message })
      showToast({ color: 'red', title: 'Upload failed', message })
    }
  }, [])

  const markLoaded = useCallback(
    () => setState((previous) => (previous.status === 'loading' ? { status: 'ready', url: previous.url } : previous)),
    [],
  )
  const markBroken = useCallback(
    () =>
      setState((previous) =>
        previous.status === 'loading' || previous.status === 'ready'
          ? { status: 'error', message: 'The uploaded image could not be shown. Try another file.' }
          : previous,
      ),
    [],
  )
  const reset = useCallback(() => {
    controller.current?.abort()
    controller.current = null
    setFile(null)
    setState({ status: 'idle' })
  }, [])

  return {
    state,
    file,
    select,
    markLoaded,
    markBroken,
    reset,
    /** Uploading, or uploaded but not yet shown: the form should wait. */
    busy: state.status === 'uploading' || state.status === 'loading',
    /** The stored image's URL once it is uploaded and has loaded. */
    url: state.status === 'ready' ? state.url : undefined,
  }
}

function checkImage(file: File): string | null {
  if (!IMAGE_TYPES.has(file.type) && !IMAGE_EXTENSIONS.test(file.name)) {
    return 'Choose a png, gif, jpeg or webp image.'
  }
  if (file.size > MAX_IMAGE_BYTES) return `Images can be at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB.`
  return null
}

interface ImageUploadFieldProps {
  upload: ReturnType<typeof useImageUpload>
  label: string
  /** 'round' for a photo, 'wide' for a cover. */
  shape: 'round' | 'wide'
  /** Shown under the input. */
  note?: ReactNode
  disabled?: boolean
}

export function ImageUploadField({ upload, label, shape, note, disabled }: ImageUploadFieldProps) {
  const { state, file, select, markLoaded, markBroken } = upload
  const previewUrl = state.status === 'loading' || state.status === 'ready' ? state.url : undefined
  const alt = `${label} preview`

  return (
    <Stack gap={6}>
      <FileInput
        label={label}
        placeholder="Choose an image"
        accept={IMAGE_ACCEPT}
        value={file}
        onChange={(chosen) => void select(chosen)}
        clearable
        disabled={disabled}
        error={state.status === 'error' ? state.message : undefined}
        fileInputProps={{ 'data-testid': `${label.toLowerCase()}-file` } as React.ComponentProps<'input'>}
      />
      {note}
      {state.status === 'uploading' && (
        <Stack gap={4}>
          {/* A sliver from the start, so the bar shows before the first progress event. */}
          <Progress value={Math.max(4, Math.round(state.progress * 100))} animated aria-label={`Uploading ${label.toLowerCase()}`} />
          <Text size="xs" c="dimmed" role="status">
            {state.progress < 1 ? `Uploading… ${Math.round(state.progress * 100)}%` : 'Checking the image…'}
          </Text>
        </Stack>
      )}
      {previewUrl && (
        <Group gap="sm" wrap="nowrap">
          {shape === 'round' ? (
            <Avatar src={previewUrl} alt={alt} size={64} radius={64} imageProps={{ onLoad: markLoaded, onError: markBroken }} />
          ) : (
            <Image src={previewUrl} alt={alt} h={64} w={160} radius="sm" fit="cover" onLoad={markLoaded} onError={markBroken} />
          )}
          {state.status === 'loading' ? (
            <Group gap={6} role="status">
              <Loader size="xs" aria-hidden="true" />
              <Text size="xs" c="dimmed">
                Loading the uploaded image…
              </Text>
            </Group>
          ) : (
            <Text size="xs" c="dimmed" role="status">
              Image ready
            </Text>
          )}
        </Group>
      )}
    </Stack>
  )
}
