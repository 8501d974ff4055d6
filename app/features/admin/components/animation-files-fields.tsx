import { Alert, Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core'
import type { GetInputPropsReturnType } from '@mantine/form'
import type { ReactNode } from 'react'
import { errorMessage } from '../../../lib/error-message'
import { FORMAT_LABEL } from '../../../../contract/format-labels'
import type { AnimationFiles } from '../use-animation-files'
import { AnimationFileField, UploadProgress } from './animation-file-field'
import { AnimationPreview } from './animation-preview'

interface AnimationFilesFieldsProps {
  files: AnimationFiles
  /** The add form marks its fields required (*); the edit form keeps the current files when left empty. */
  required: boolean
  /** The Lottie link's value and the form's props for its input. */
  link: string
  linkInputProps: GetInputPropsReturnType
  errors?: { apng?: ReactNode; gif?: ReactNode }
}

/** Lottie (link or .json file), APNG and GIF inputs, and the step that renders GIF and APNG from the Lottie. */
export function AnimationFilesFields({ files, required, link, linkInputProps, errors = {} }: AnimationFilesFieldsProps) {
  const { lottie, apng, gif, render, renderTargets } = files
  const keep = required ? undefined : 'Leave empty to keep the current file'
  // A Lottie file (chosen, uploading or uploaded) makes the link unneeded; a failed one does not.
  const lottieFromFile = (lottie.state.status === 'working' || lottie.state.status === 'ready') && lottie.state.source === 'file'
  const linkFailure = lottie.state.status === 'error' && lottie.state.source === 'link' ? lottie.state.message : undefined
  const lottieGiven = lottie.id !== '' || link.trim() !== '' || lottieFromFile
  // Marked required exactly when the rules require them (contract/wumpus-write.ts): the link while no Lottie
  // file is chosen, the .png and .gif while no Lottie is given at all (from a Lottie they can be made).
  const linkStar = required && !lottieFromFile ? '*' : ''
  const fileStar = required && !lottieGiven ? '*' : ''
  const madeFromLottie = required
    ? lottieGiven
      ? 'Or make it from the Lottie below'
      : 'Not needed with a Lottie: it can be made from it'
    : undefined
  const renderNames = renderTargets.map((upload) => FORMAT_LABEL[upload.format]).join(' and ')
  // Once every target holds a file rendered from this Lottie, there is nothing left to generate.
  const rendered = renderTargets.every((upload) => upload.state.status === 'ready' && upload.state.source === 'render')

  return (
    <Stack gap="md">
      <Stack gap="xs">
        <TextInput
          label={`Lottie link${linkStar}`}
          description={
            lottieFromFile
              ? 'The uploaded Lottie file is used; this link is not needed.'
              : `An https link to a Lottie JSON file${required ? '' : '; leave empty to keep the current one'}`
          }
          type="url"
          inputMode="url"
          placeholder="https://…/animation.json"
          {...linkInputProps}
          error={lottieFromFile ? undefined : (linkFailure ?? linkInputProps.error)}
          onChange={(event) => {
            linkInputProps.onChange(event)
            files.onLinkChange(event.currentTarget.value)
          }}
          onBlur={(event) => {
            linkInputProps.onBlur?.(event)
            files.checkLink(event.currentTarget.value)
          }}
        />
        <AnimationFileField upload={lottie} label="or upload a Lottie .json file" description={keep} showResult={false} />
        {lottie.state.status === 'working' && (
          <UploadProgress
            label="Lottie file"
            progress={lottie.state.progress}
            message={lottie.state.source === 'link' ? 'Fetching the Lottie from the link…' : undefined}
          />
        )}
        {lottie.state.status === 'ready' && <AnimationPreview file={lottie.state.file} source={lottie.state.source} />}
      </Stack>

      <AnimationFileField
        upload={apng}
        label={`Upload .png file${fileStar}`}
        description={keep ?? `An animated PNG (APNG). ${madeFromLottie}`}
        error={fileStar || !required ? errors.apng : undefined}
      />
      <AnimationFileField
        upload={gif}
        label={`Upload .gif file${fileStar}`}
        description={keep ?? madeFromLottie}
        error={fileStar || !required ? errors.gif : undefined}
      />

      {lottieGiven && renderTargets.length > 0 && !rendered && (
        <Paper withBorder p="sm" radius="md">
          <Stack gap="xs">
            <Text size="sm">
              {required ? `No ${renderNames} file?` : `Changing the Lottie?`} The server can render the {renderNames} from the Lottie, at
              320 × 320 px.
            </Text>
            <Group>
              <Button
                variant="light"
                onClick={() => void files.generate(link)}
                loading={render.isPending}
                disabled={files.busy && !render.isPending}
              >
                Generate {renderNames}
              </Button>
            </Group>
            {render.isPending && (
              <UploadProgress label={renderNames} progress={null} message={`Rendering the ${renderNames}… this takes a few seconds.`} />
            )}
            {render.isError && (
              <Alert color="red" variant="light" role="alert" p="xs">
                <Text size="sm">{errorMessage(render.error, 'The animation could not be rendered.')}</Text>
              </Alert>
            )}
          </Stack>
        </Paper>
      )}
    </Stack>
  )
}
