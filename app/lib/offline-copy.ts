/** Header the service worker puts on API answers it serves from its IndexedDB copy (the network failed). */
export const OFFLINE_COPY_HEADER = 'X-Offline-Copy'
