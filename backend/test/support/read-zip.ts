import yauzl from 'yauzl'

export interface ZipEntry {
  name: string
  bytes: Uint8Array
  /** 0 = stored, as every entry of a pack ZIP is. */
  method: number
}

const failure = (error: unknown) => (error instanceof Error ? error : new Error('the ZIP cannot be read'))

/** Reads a whole archive with yauzl (an independent reader), entries in archive order. */
export function readZip(bytes: Uint8Array): Promise<ZipEntry[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(Buffer.from(bytes), { lazyEntries: true, validateEntrySizes: true }, (error, zip) => {
      if (error || !zip) return reject(failure(error))
      const entries: ZipEntry[] = []
      zip.on('error', reject)
      zip.on('end', () => resolve(entries))
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(failure(streamError))
          const chunks: Buffer[] = []
          stream.on('data', (chunk: Buffer) => chunks.push(chunk))
          stream.on('end', () => {
            entries.push({ name: entry.fileName, bytes: new Uint8Array(Buffer.concat(chunks)), method: entry.compressionMethod })
            zip.readEntry()
          })
        })
      })
      zip.readEntry()
    })
  })
}
