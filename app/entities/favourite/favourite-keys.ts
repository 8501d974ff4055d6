// Apart from api.ts, which loads the reading code on demand: that code refreshes these keys too.
export const favouriteKeys = {
  ids: (email: string) => ['favourites', email, 'ids'] as const,
  list: (email: string) => ['favourites', email, 'list'] as const,
}
