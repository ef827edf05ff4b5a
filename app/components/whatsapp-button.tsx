/** Home's contact button while no drop runs (its own file: other pages do not load it). */
export function WhatsAppButton({ number }: { number: string }) {
  return (
    <a
      href={`https://wa.me/${number}`}
      className="fixed bottom-4 right-4 z-20 flex items-center gap-2 rounded-full bg-[#1f7a4d] px-4 py-3 font-medium text-white shadow-lg"
      rel="noopener"
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="size-5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
      >
        <path d="M4 20l1.3-4A8 8 0 1 1 8 18.7L4 20Z" />
      </svg>
      Escríbenos por WhatsApp
    </a>
  );
}
