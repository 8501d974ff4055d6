import { schemaResolver, useForm, type UseFormReturnType } from '@mantine/form'
import { useEffect, useMemo, useState, type FormEvent } from 'react'

type Schema = Parameters<typeof schemaResolver>[0]

/**
 * A form checked with a contract schema on submit, and re-checked on every change after the first
 * submit (errors do not appear while someone is still typing for the first time).
 */
export function useAuthForm<Values extends Record<string, unknown>>(schema: Schema, initialValues: Values) {
  const [submitted, setSubmitted] = useState(false)
  const validate = useMemo(() => schemaResolver(schema, { sync: true }), [schema])
  const form: UseFormReturnType<Values> = useForm<Values>({ initialValues, validate, clearInputErrorOnChange: false })

  useEffect(() => {
    if (submitted) form.validate()
    // form.validate is stable; re-run on every change of the values.
  }, [submitted, form.values])

  const onSubmit = (handler: (values: Values) => void | Promise<unknown>) => (event?: FormEvent<HTMLFormElement>) => {
    setSubmitted(true)
    form.onSubmit(handler)(event)
  }
  return { form, onSubmit }
}
