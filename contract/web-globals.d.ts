// contract/ is type-checked with no environment's globals (neither DOM nor Node) so that it stays usable by
// the app, the service worker and the server alike. These are the few web-standard globals it uses, which
// all three have; declared here with only the members contract code needs.
declare class URLSearchParams {
  constructor(init?: Record<string, string> | string)
  set(name: string, value: string): void
  toString(): string
  [Symbol.iterator](): IterableIterator<[string, string]>
}
declare function structuredClone<T>(value: T): T
