/*
 * The 'Avísame' form's field names and the page its consent links to: what the form component
 * needs, apart from the input's schema (zod), which stays on the server and out of the pages'
 * JavaScript.
 */

/**
 * Where the form sends its field names (the page's own action, or the drop's page from home).
 * `reto`: the proof of work the page solved (decision 31), sent with JavaScript only (the
 * `X-Altcha` header is taken too).
 */
export const FIELDS = { email: "correo", consent: "consentimiento", proof: "reto" } as const;

/** The privacy notice the consent box links to. */
export const PRIVACY_NOTICE_PATH = "/aviso-de-privacidad";
