import { useMutation } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { LOTTIE_LINK_PATTERN } from '../../../contract/wumpus-write'
import { renderFromLottie } from './api'
import { useAnimationUpload, type AnimationUpload } from './use-animation-upload'

/** The three files of an animation form, the Lottie's link, and GIF/APNG rendering from the Lottie. */
export function useAnimationFiles() {
  const lottie = useAnimationUpload('lottie')
  const apng = useAnimationUpload('apng')
  const gif = useAnimationUpload('gif')
  const render = useMutation({ mutationFn: renderFromLottie })
  const renderedFrom = useRef('')

  // Rendered files belong to the Lottie they came from: another Lottie drops them.
  const { id: lottieId } = lottie
  const resetRender = render.reset
  // Runs after most renders (the uploads are new objects each time), but does something only once the
  // Lottie is no longer the one the GIF and APNG were rendered from.
  useEffect(() => {
    if (!renderedFrom.current || renderedFrom.current === lottieId) return
    renderedFrom.current = ''
    resetRender()
    for (const upload of [gif, apng]) {
      if (upload.state.status === 'ready' && upload.state.source === 'render') upload.reset()
    }
  }, [lottieId, resetRender, gif, apng])

  const usesLink = (link: string) =>
    lottie.state.status !== 'idle' && lottie.state.source === 'link' && (lottie.state.status !== 'ready' || lottie.state.link === link)

  /** The Lottie to use: the uploaded file, else the link, fetched by the server now if it was not yet. */
  async function resolveLottie(rawLink: string): Promise<string | null> {
    const link = rawLink.trim()
    const { state } = lottie
    if (state.status === 'ready' && (state.source === 'file' || state.link === link)) return state.file.id
    if (!LOTTIE_LINK_PATTERN.test(link)) return null
    return (await lottie.fetchLink(link))?.id ?? null
  }

  /** GIF and APNG that rendering would fill: those not chosen as files. */
  const renderTargets: AnimationUpload[] = [gif, apng].filter(
    (upload) => !(upload.state.status !== 'idle' && upload.state.source === 'file' && upload.state.status !== 'error'),
  )

  async function generate(link: string) {
    const targets = renderTargets
    const id = await resolveLottie(link)
    if (!id) return
    try {
      const result = await render.mutateAsync(id)
      renderedFrom.current = id
      for (const upload of targets) upload.use(upload.format === 'gif' ? result.gif : result.apng, 'render')
    } catch {
      // render.error says why, beside the button.
    }
  }

  /** A changed link makes the copy fetched from the old one stale. */
  function onLinkChange(rawLink: string) {
    const link = rawLink.trim()
    if (
      lottie.state.status !== 'idle' &&
      lottie.state.source === 'link' &&
      !(lottie.state.status === 'ready' && lottie.state.link === link)
    ) {
      lottie.reset()
    }
  }

  /** Once a link is typed in full (the field is left), the server fetches and checks it. */
  function checkLink(rawLink: string) {
    const link = rawLink.trim()
    const fileChosen = lottie.state.status !== 'idle' && lottie.state.source === 'file'
    if (fileChosen || !LOTTIE_LINK_PATTERN.test(link) || usesLink(link)) return
    void lottie.fetchLink(link)
  }

  return {
    lottie,
    apng,
    gif,
    render,
    renderTargets,
    resolveLottie,
    generate,
    onLinkChange,
    checkLink,
    busy: lottie.busy || apng.busy || gif.busy || render.isPending,
  }
}

export type AnimationFiles = ReturnType<typeof useAnimationFiles>
