import { Stack, Text } from '@mantine/core'
import { FORMAT_LABEL } from '../../../../contract/format-labels'
import type { UploadedAnimationFile } from '../api'
import { mediaFacts } from '../media-facts'
import type { UploadSource } from '../use-animation-upload'
import classes from './animation-preview.module.css'
import { LottieFilePreview } from './lottie-file-preview'

const SOURCE_NOTE: Partial<Record<UploadSource, string>> = {
  render: 'Rendered from the Lottie',
  link: 'Fetched from the link',
}

/** An uploaded file as the server checked it: the animation itself and the facts read from its bytes. */
export function AnimationPreview({ file, source }: { file: UploadedAnimationFile; source?: UploadSource }) {
  const format = file.info.format === 'lottie' ? 'lottie' : file.info.format === 'gif' ? 'gif' : 'apng'
  const label = `${FORMAT_LABEL[format]} preview`
  const note = source && SOURCE_NOTE[source]
  return (
    <div className={classes.card} role="group" aria-label={label}>
      <div className={classes.frame}>
        {format === 'lottie' ? (
          <LottieFilePreview url={file.url} label={label} />
        ) : (
          <img src={file.url} alt={label} width={120} height={120} />
        )}
      </div>
      <Stack gap={4} className={classes.details}>
        {note && (
          <Text size="xs" fw={700} c="var(--mantine-color-anchor)" tt="uppercase">
            {note}
          </Text>
        )}
        <dl className={classes.facts} aria-label={`What the server found in the ${FORMAT_LABEL[format]}`}>
          {mediaFacts(file.info).map((fact) => (
            <div key={fact.label} style={{ display: 'contents' }}>
              <dt>{fact.label}</dt>
              <dd>{fact.value}</dd>
            </div>
          ))}
        </dl>
      </Stack>
    </div>
  )
}
