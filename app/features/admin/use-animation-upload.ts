import { useCallback, useEffect, useRef, useState } from 'react'
import { errorMessage } from '../../lib/error-message'
import { MAX_APNG_BYTES, MAX_GIF_BYTES, MAX_LOTTIE_BYTES, type MediaFormat } from '../../../contract/limits'
import { FORMAT_LABEL } from '../../../contract/format-labels'
import { uploadAnimationFile, uploadLottieLink, type UploadedAnimationFile } from './api'
import { formatBytes } from '../../lib/format-bytes'

/** Where a file came from: chosen on disk, fetched from a link by the server, or rendered from the Lottie. */
export type UploadSource = 'file' | 'link' | 'render'

export type AnimationUploadState =
  | { status: 'idle' }
  /** progress: fraction sent, or null when there is nothing to measure (the server fetches or renders). */
  | { status: 'working'; source: UploadSource; progress: number | null }
  | { status: 'ready'; source: UploadSource; file: UploadedAnimationFile; link?: string }
  | { status: 'error'; source: UploadSource; message: string }

const MAX_BYTES: Record<MediaFormat, number> = { gif: MAX_GIF_BYTES, apng: MAX_APNG_BYTES, lottie: MAX_LOTTIE_BYTES }

/** One animation format of the form: uploads a chosen file at once and keeps what the server answered. */
export function useAnimationUpload(format: MediaFormat) {
  const [state, setState] = useState<AnimationUploadState>({ status: 'idle' })
  const [chosen, setChosen] = useState<File | null>(null)
  const controller = useRef<AbortController | null>(null)

  useEffect(() => () => controller.current?.abort(), [])

  /** Cancels whatever is under way and answers a signal for the next job. */
  const restart = useCallback(() => {
    controller.current?.abort()
    const next = new AbortController()
    controller.current = next
    return next.signal
  }, [])

  const select = useCallback(
    async (file: File | null) => {
      const signal = restart()
      setChosen(file)
      if (!file) {
        setState({ status: 'idle' })
        return
      }
      if (file.size > MAX_BYTES[format]) {
        setState({
          status: 'error',
          source: 'file',
          message: `A ${FORMAT_LABEL[format]} can be at most ${formatBytes(MAX_BYTES[format])}.`,
        })
        return
      }
      setState({ status: 'working', source: 'file', progress: 0 })
      try {
        const uploaded = await uploadAnimationFile(
          format,
          file,
          (progress) => {
            if (!signal.aborted) setState({ status: 'working', source: 'file', progress })
          },
          { signal },
        )
        if (!signal.aborted) setState({ status: 'ready', source: 'file', file: uploaded })
      } catch (error) {
        if (!signal.aborted) setState({ status: 'error', source: 'file', message: errorMessage(error) })
      }
    },
    [format, restart],
  )

  /** Lottie only: the server fetches the link, checks it and keeps a copy. Answers the copy, or null. */
  const fetchLink = useCallback(
    async (link: string): Promise<UploadedAnimationFile | null> => {
      const signal = restart()
      setChosen(null)
      setState({ status: 'working', source: 'link', progress: null })
      try {
        const uploaded = await uploadLottieLink(link, signal)
        if (signal.aborted) return null
        setState({ status: 'ready', source: 'link', file: uploaded, link })
        return uploaded
      } catch (error) {
        if (!signal.aborted) setState({ status: 'error', source: 'link', message: errorMessage(error) })
        return null
      }
    },
    [restart],
  )

  /** A file made elsewhere (rendered from the Lottie). */
  const use = useCallback(
    (file: UploadedAnimationFile, source: UploadSource) => {
      restart()
      setChosen(null)
      setState({ status: 'ready', source, file })
    },
    [restart],
  )

  const reset = useCallback(() => {
    restart()
    setChosen(null)
    setState({ status: 'idle' })
  }, [restart])

  return {
    format,
    state,
    /** The file chosen on disk, for the file input. */
    chosen,
    select,
    fetchLink,
    use,
    reset,
    busy: state.status === 'working',
    /** Id of the stored file once it is ready, else ''. */
    id: state.status === 'ready' ? state.file.id : '',
  }
}

export type AnimationUpload = ReturnType<typeof useAnimationUpload>
