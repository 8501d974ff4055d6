/** An email that wraps after its @ first, when the cell is narrow. */
export function EmailText({ email }: { email: string }) {
  const at = email.indexOf('@')
  if (at < 0) return email
  return (
    <>
      {email.slice(0, at + 1)}
      <wbr />
      {email.slice(at + 1)}
    </>
  )
}
