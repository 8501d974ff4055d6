import { builtinEnvironments, type Environment } from 'vitest/runtime'

/**
 * The app tests' environment: vitest's jsdom, except that Blob, File and FormData stay Node's, as
 * in a browser where there is one of each. fetch, Request, Response and structuredClone in these
 * tests are Node's (jsdom has none), and they only understand Node's classes: with jsdom's, a
 * File sent in a FormData arrives empty and named "blob", and on Node 24, whose fetch (undici 7)
 * looks File and Blob up on the global at call time, `request.formData()` fails and
 * `response.blob()` answers a jsdom Blob that structuredClone (fake-indexeddb) turns into a plain
 * object without its type or bytes. The app uses none of jsdom's own consumers of these classes
 * (FileReader, `new FormData(form)`).
 */
const FROM_NODE = ['Blob', 'File', 'FormData'] as const

export default {
  name: 'jsdom-with-node-blobs',
  viteEnvironment: 'client',
  async setup(global: typeof globalThis, options) {
    const node = FROM_NODE.map((name) => [name, global[name]] as const)
    const jsdom = await builtinEnvironments.jsdom.setup(global, options)
    for (const [name, value] of node) Object.assign(global, { [name]: value })
    return jsdom
  },
} satisfies Environment
