import { schemaResolver, useForm, type UseFormReturnType } from '@mantine/form'
import { useEffect, useMemo, useState, type FormEvent } from 'react'

type Schema = Parameters<typeof schemaResolver>[0]

/**
 * A form checked with a contract schema on submit, and re-checked on every change after the first
 * submit (errors do not appear while someone is still typing for the first time). Used by the auth
 * forms and the admin's animation form.
 */
export function useSchemaForm<Values extends Record<string, unknown>>(schema: Schema, initialValues: Values) {
  const [submitted, setSubmitted] = useState(false)
  const validate = useMemo(() => schemaResolver(schema, { sync: true }), [schema])
  const form: UseFormReturnType<Values> = useForm<Values>({ initialValues, validate, clearInputErrorOnChange: false })

  // validate is stable while the rules are (memoised above); `values` re-runs the check on every change.
  const { validate: validateValues, values } = form
  useEffect(() => {
    if (submitted) validateValues()
  }, [submitted, values, validateValues])

  const onSubmit = (handler: (values: Values) => void | Promise<unknown>) => (event?: FormEvent<HTMLFormElement>) => {
    setSubmitted(true)
    form.onSubmit(handler)(event)
  }
  return { form, onSubmit }
}
