// A drop's opening rules (decision 27): a new drop's defaults and the owner's bounds.

/** The defaults of a new drop (migration 0015), and the bounds of the owner's form. */
export const OPENING_DEFAULTS = {
  lotterySeconds: 10,
  openingMinutes: 60,
  openingHoldMinutes: 10,
  openingHoldsPerAddress: 2,
  /** 'Solo tarjeta': hours from the start with no OXXO nor SPEI (decision 42). */
  cardOnlyHours: 2,
} as const;

export const OPENING_BOUNDS = {
  lotterySeconds: { min: 0, max: 120 },
  openingMinutes: { min: 0, max: 24 * 60 },
  openingHoldMinutes: { min: 5, max: 30 },
  openingHoldsPerAddress: { min: 1, max: 100 },
  cardOnlyHours: { min: 0, max: 72 },
} as const;
