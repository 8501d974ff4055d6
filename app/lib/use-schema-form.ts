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

  useEffect(() => {
    if (submitted) form.validate()
    // Keyed on the values, not on `form`: useForm answers a new object on every render, so with it the
    // effect would run after every render (validate sets errors, which renders again: a loop).
    // eslint-disable-next-line react-hooks/exhaustive-deps -- see above
  }, [submitted, form.values])

  const onSubmit = (handler: (values: Values) => void | Promise<unknown>) => (event?: FormEvent<HTMLFormElement>) => {
    setSubmitted(true)
    form.onSubmit(handler)(event)
  }
  return { form, onSubmit }
}
