// zod checks once whether it may compile its object parsers with `new Function`; our Content Security
// Policy forbids that, so the check only makes the browser report a violation (Lighthouse counts it
// against Best Practices). jitless skips the check. Set where zod reads its settings, so that zod itself
// still loads only with the first page that parses something.
const zodHolder = globalThis as { __zod_globalConfig?: { jitless?: boolean } }
;(zodHolder.__zod_globalConfig ??= {}).jitless = true
