import { Alert, Stack } from '@mantine/core'
import { useSuspenseQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import { recipeFromSearch, recipeToSearch, type Recipe } from '../../../../contract/remix/recipe'
import { AnchorLink } from '../../../components/router-links'
import { VerifyEmailFirst } from '../../../components/verify-email-first'
import { wumpusQueryOptions } from '../../../entities/wumpus/api'
import { RemixEditor } from './remix-editor'

/** The address's form of a recipe: flags and the speed as numbers (`o=1&s=1.5`), the rest as text. */
export function recipeSearch(recipe: Recipe): Record<string, string | number> {
  const search: Record<string, string | number> = recipeToSearch(recipe)
  for (const key of ['o', 's', 'm']) if (search[key] !== undefined) search[key] = Number(search[key])
  return search
}

interface RemixPageProps {
  id: string
  search: Record<string, unknown>
  emailVerified: boolean
  onSearch: (search: Record<string, string | number>) => void
}

/** The editor for an original, once the user may use it (a verified email; not a remix). */
export function RemixPage({ id, search, emailVerified, onSearch }: RemixPageProps) {
  const { data: original } = useSuspenseQuery(wumpusQueryOptions(id))
  const recipe = useMemo(() => recipeFromSearch(search), [search])

  if (original.remixOf) {
    return (
      <Stack gap="lg">
        <Alert color="yellow" variant="light" title="This is already a remix">
          Make your version from the original instead.{' '}
          <AnchorLink to="/wumpus/$id/remix" params={{ id: original.remixOf }} inherit c="inherit" underline="always" fw={600}>
            Open the original in the editor
          </AnchorLink>
        </Alert>
      </Stack>
    )
  }
  if (!emailVerified) {
    return <VerifyEmailFirst>Making your own version of a sticker needs a verified email address.</VerifyEmailFirst>
  }
  return <RemixEditor original={original} recipe={recipe} onRecipe={(next) => onSearch(recipeSearch(next))} />
}
