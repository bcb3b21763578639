import type { ReactNode } from 'react';

/** Line icons drawn with the current text colour; decorative, so hidden from assistive tech. */
function Icon({ children }: { children: ReactNode }) {
  return (
    <svg
      className="icon"
      viewBox="0 0 24 24"
      width="24"
      height="24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

export function DashboardIcon() {
  return (
    <Icon>
      <rect x="3.5" y="3.5" width="7" height="9" rx="1.5" />
      <rect x="13.5" y="3.5" width="7" height="5" rx="1.5" />
      <rect x="13.5" y="11.5" width="7" height="9" rx="1.5" />
      <rect x="3.5" y="15.5" width="7" height="5" rx="1.5" />
    </Icon>
  );
}

export function GenerateIcon() {
  return (
    <Icon>
      <path d="M10 3.5l1.6 4.4 4.4 1.6-4.4 1.6L10 15.5l-1.6-4.4L4 9.5l4.4-1.6z" />
      <path d="M17.5 13.5l.8 2.2 2.2.8-2.2.8-.8 2.2-.8-2.2-2.2-.8 2.2-.8z" />
    </Icon>
  );
}

export function OutputIcon() {
  return (
    <Icon>
      <rect x="3.5" y="4.5" width="17" height="15" rx="2" />
      <circle cx="9" cy="9.5" r="1.75" />
      <path d="M20.5 15.5l-4.5-4.5-8.5 8.5" />
    </Icon>
  );
}

export function UpscaleIcon() {
  return (
    <Icon>
      <path d="M14 3.5h6.5V10" />
      <path d="M20.5 3.5L13.5 10.5" />
      <path d="M10 20.5H3.5V14" />
      <path d="M3.5 20.5l7-7" />
    </Icon>
  );
}

export function InputIcon() {
  return (
    <Icon>
      <path d="M12 15V3.5" />
      <path d="M7.5 8L12 3.5 16.5 8" />
      <path d="M3.5 14.5v4a2 2 0 0 0 2 2h13a2 2 0 0 0 2-2v-4" />
    </Icon>
  );
}

export function SignOutIcon() {
  return (
    <Icon>
      <path d="M9.5 20.5h-4a2 2 0 0 1-2-2v-13a2 2 0 0 1 2-2h4" />
      <path d="M16 16.5l4.5-4.5L16 7.5" />
      <path d="M20.5 12H9.5" />
    </Icon>
  );
}
