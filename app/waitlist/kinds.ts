/** The 'Avísame' e-mails: their kinds in the mail queue. */
export const WAITLIST_CONFIRM_EMAIL = "avisame_confirmar";
export const WAITLIST_OPENING_EMAIL = "avisame_apertura";

/** One opening notice per drop and address, however many servers run the job at once. */
export function openingDedupeKey(dropId: string, email: string): string {
  return `avisame_apertura:${dropId}:${email}`;
}
