import type { User } from '../../contract/user'

/** A fake user with every optional field empty, as the API answers for a fresh account. */
export function makeUser(overrides: Partial<User> = {}): User {
  return {
    email: 'ana.smith@example.com',
    user_name: 'Ana Smith',
    role: 'user',
    photo: '',
    cover: '',
    url: '',
    job: '',
    description: '',
    showSensitive: false,
    ...overrides,
  }
}
