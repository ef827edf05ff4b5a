/** The one privileged role. */
export const ADMIN_ROLE = "admin";

// Length is what makes a password strong; no composition rules (NIST SP 800-63B).
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

/** What is wrong with a new password, in Spanish, or null when it is acceptable. */
export function checkPassword(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH)
    return `La contraseña debe tener al menos ${PASSWORD_MIN_LENGTH} caracteres.`;
  if (password.length > PASSWORD_MAX_LENGTH)
    return `La contraseña no puede tener más de ${PASSWORD_MAX_LENGTH} caracteres.`;
  return null;
}
