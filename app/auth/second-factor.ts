/** What the sign-in pages and the server share about the second factor (no server code here). */

/** The sign-in library's cookies of the second factor (its names, under our prefix). */
export const CHALLENGE_COOKIE = "admin.two_factor";
export const TRUSTED_DEVICE_COOKIE = "admin.trust_device";
/** How long a device may skip the code, counted from the code typed on it. */
export const TRUSTED_DEVICE_DAYS = 30;
/** The sign-in forms' field for a proof of work, asked of an unknown device past its limits (decision 32). */
export const PROOF_FIELD = "prueba";
