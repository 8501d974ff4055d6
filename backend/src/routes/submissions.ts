import Router from '@koa/router'
import type { Context } from 'koa'
import {
  mySubmissionsQuerySchema,
  submissionDecisionSchema,
  submissionEditFieldsSchema,
  submissionFieldsSchema,
  submissionQueueQuerySchema,
} from '../../../contract/submissions'
import { PLATFORM_RULES } from '../../../contract/stickers'
import { HttpError } from '../http/http-error'
import { toApiSubmission, toApiSubmitter } from '../http/mappers/submission'
import { multipart, readUploadedFile, uploadedFiles } from '../http/multipart'
import { setPageHeaders } from '../http/page-headers'
import { idParam } from '../http/params'
import { requireAdmin, requireSession, requireVerifiedEmail, sessionOf } from '../http/require-session'
import type { SentSticker } from '../services/submissions'
import type { SpendLimit } from '../services/wumpuses'
import type { RouteDeps } from './route-deps'

/**
 * Submissions (docs/rest-api.md): people with a verified email send stickers and edit or withdraw them while
 * they wait; admins list the queue and decide.
 */
export function submissionRoutes(deps: RouteDeps): Router {
  const { config, limits, submissions } = deps
  const router = new Router()
  const session = requireSession(deps.sessions)
  const admin = requireAdmin(deps.accounts)
  // One sticker file, within the Lottie limit (a .tgs or .lottie is smaller than the Lottie it holds).
  const parseMultipart = multipart({ maxFileBytes: config.limits.lottie, maxFiles: 1, config })

  router.post('/submissions', session, requireVerifiedEmail, limits.guard('upload'), parseMultipart, async (ctx) => {
    const { email, name } = sessionOf(ctx)
    const file = await sentSticker(ctx)
    if (!file) throw new HttpError('BAD_REQUEST', 'Send the sticker file in the field "file"', { field: 'file' })
    const fields = submissionFieldsSchema.parse(textFields(ctx))
    const record = await submissions.submit({ email, name }, fields, file)
    ctx.status = 201
    ctx.body = { id: record.id }
  })

  router.get('/me/submissions', session, async (ctx) => {
    const query = mySubmissionsQuerySchema.parse(ctx.query)
    const page = await submissions.mine(sessionOf(ctx).email, query)
    setPageHeaders(ctx, page, (cursor) => `/api/me/submissions?${new URLSearchParams({ limit: String(query.limit), cursor })}`)
    ctx.set('Cache-Control', 'no-store')
    ctx.body = page.items.map(toApiSubmission)
  })

  router.put('/submissions/:id', session, requireVerifiedEmail, limits.guard('upload'), parseMultipart, async (ctx) => {
    const patch = submissionEditFieldsSchema.parse(textFields(ctx))
    const record = await submissions.edit(sessionOf(ctx).email, idParam(ctx), patch, await sentSticker(ctx))
    ctx.set('Cache-Control', 'no-store')
    ctx.body = toApiSubmission(record)
  })

  router.delete('/submissions/:id', session, requireVerifiedEmail, async (ctx) => {
    await submissions.withdraw(sessionOf(ctx).email, idParam(ctx))
    ctx.status = 204
  })

  router.get('/submissions', session, admin, async (ctx) => {
    const query = submissionQueueQuerySchema.parse(ctx.query)
    const page = await submissions.queue(sessionOf(ctx).email, query.state, query)
    const next = (cursor: string) => `/api/submissions?${new URLSearchParams({ state: query.state, limit: String(query.limit), cursor })}`
    setPageHeaders(ctx, page, next)
    ctx.set('Cache-Control', 'no-store')
    ctx.body = page.items.map(toApiSubmission)
  })

  router.get('/submissions/:id/submitter', session, admin, async (ctx) => {
    const history = await submissions.submitter(sessionOf(ctx).email, idParam(ctx))
    ctx.set('Cache-Control', 'no-store')
    ctx.body = toApiSubmitter(history)
  })

  router.get('/submissions/:id/fit', session, admin, async (ctx) => {
    const fits = await submissions.fit(sessionOf(ctx).email, idParam(ctx))
    ctx.set('Cache-Control', 'no-store')
    ctx.body = fits.map((fit) => ({ ...fit, label: PLATFORM_RULES[fit.platform].label }))
  })

  router.post('/submissions/:id/decision', session, admin, async (ctx) => {
    const { email } = sessionOf(ctx)
    const body = submissionDecisionSchema.parse(ctx.request.body ?? {})
    // Publishing renders the GIF and APNG from the Lottie: the reviewer's render limit.
    const spend: SpendLimit = async (limit) => {
      await limits.ip(limit, ctx)
      await limits.account(limit, ctx, email)
    }
    const record = await submissions.decide(email, idParam(ctx), body.decision, body.note, spend)
    ctx.body = toApiSubmission(record)
  })

  return router
}

/** The text fields of a multipart body (koa-body puts them in request.body). */
function textFields(ctx: Context): Record<string, unknown> {
  return { ...((ctx.request.body ?? {}) as Record<string, unknown>) }
}

/** The sticker sent in the field "file", read; undefined when none was sent; anything else is refused. */
async function sentSticker(ctx: Context): Promise<SentSticker | undefined> {
  const files = uploadedFiles(ctx)
  if (files.length === 0) return undefined
  const file = files.find((f) => f.field === 'file')
  if (!file || files.length !== 1) throw new HttpError('BAD_REQUEST', 'Send one sticker file, in the field "file"', { field: 'file' })
  return { bytes: await readUploadedFile(file), name: file.name }
}
