import type { ReactNode } from 'react';

const SIZES = {
  /** The sidebar and the large placeholders. */
  large: { className: 'icon', width: 24, strokeWidth: 1.75 },
  /** The buttons of the galleries, the tags panel and the dialogs. */
  small: { className: 'gallery-icon', width: 18, strokeWidth: 1.9 },
};

/** Line icons drawn with the current text colour; decorative, so hidden from assistive tech. */
function Icon({ size = 'large', children }: { size?: keyof typeof SIZES; children: ReactNode }) {
  const { className, width, strokeWidth } = SIZES[size];
  return (
    <svg
      className={className}
      viewBox="0 0 24 24"
      width={width}
      height={width}
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
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

export function GridIcon() {
  return (
    <Icon size="small">
      <rect x="4" y="4" width="7" height="9" rx="1.5" />
      <rect x="13" y="4" width="7" height="5" rx="1.5" />
      <rect x="13" y="11" width="7" height="9" rx="1.5" />
      <rect x="4" y="15" width="7" height="5" rx="1.5" />
    </Icon>
  );
}

export function ListIcon() {
  return (
    <Icon size="small">
      <path d="M9 6h11M9 12h11M9 18h11" />
      <path d="M4.5 6h.01M4.5 12h.01M4.5 18h.01" strokeWidth="3" />
    </Icon>
  );
}

export function RefreshIcon() {
  return (
    <Icon size="small">
      <path d="M20 11a8 8 0 0 0-14.6-4.5L4 8" />
      <path d="M4 4v4h4" />
      <path d="M4 13a8 8 0 0 0 14.6 4.5L20 16" />
      <path d="M20 20v-4h-4" />
    </Icon>
  );
}

export function TagIcon() {
  return (
    <Icon size="small">
      <path d="M3.5 12.2V4.5a1 1 0 0 1 1-1h7.7a1 1 0 0 1 .7.3l8 8a1 1 0 0 1 0 1.4l-7.7 7.7a1 1 0 0 1-1.4 0l-8-8a1 1 0 0 1-.3-.7z" />
      <circle cx="8" cy="8" r="1.4" />
    </Icon>
  );
}

/** Filled when the image is starred; the button's aria-pressed says the same to assistive tech. */
export function StarIcon({ filled }: { filled: boolean }) {
  return (
    <Icon size="small">
      <path
        d="M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L12 16.9l-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z"
        fill={filled ? 'currentColor' : 'none'}
      />
    </Icon>
  );
}

export function TrashIcon() {
  return (
    <Icon size="small">
      <path d="M4 7h16" />
      <path d="M10 11v6M14 11v6" />
      <path d="M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12" />
      <path d="M9 7V4.5a1 1 0 0 1 1-1h4a1 1 0 0 1 1 1V7" />
    </Icon>
  );
}

export function DownloadIcon() {
  return (
    <Icon size="small">
      <path d="M12 4v11" />
      <path d="M7.5 10.5L12 15l4.5-4.5" />
      <path d="M4 17v2a1.5 1.5 0 0 0 1.5 1.5h13A1.5 1.5 0 0 0 20 19v-2" />
    </Icon>
  );
}

export function EditIcon() {
  return (
    <Icon size="small">
      <path d="M4 20h4L19 9a2.1 2.1 0 0 0-4-4L4 16z" />
      <path d="M13.5 6.5l4 4" />
    </Icon>
  );
}

export function PlusIcon() {
  return (
    <Icon size="small">
      <path d="M12 5v14M5 12h14" />
    </Icon>
  );
}

export function CloseIcon() {
  return (
    <Icon size="small">
      <path d="M6 6l12 12M18 6L6 18" />
    </Icon>
  );
}

/** A bell; struck through when notifications are off. */
export function BellIcon({ off }: { off: boolean }) {
  return (
    <Icon size="small">
      <path d="M6 16V11a6 6 0 0 1 12 0v5l1.5 2h-15z" />
      <path d="M10 20.5a2 2 0 0 0 4 0" />
      {off && <path d="M4 4l16 16" />}
    </Icon>
  );
}

/** The plain × of the details modal's and the toasts' close buttons, `size` pixels wide. */
export function CrossIcon({ size }: { size: number }) {
  return (
    <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false">
      <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

/** Tile series (issue 25): four faces of one design. */
export function SeriesIcon() {
  return (
    <Icon size="small">
      <rect x="3.5" y="3.5" width="7.5" height="7.5" rx="1" />
      <rect x="13" y="3.5" width="7.5" height="7.5" rx="1" />
      <rect x="3.5" y="13" width="7.5" height="7.5" rx="1" />
      <rect x="13" y="13" width="7.5" height="7.5" rx="1" />
    </Icon>
  );
}

/** The admin screens' sidebar link (issue 29): a shield with a person. */
export function AdminIcon() {
  return (
    <Icon>
      <path d="M12 3.5l7 2.5v5.5c0 4.2-2.9 7.6-7 9-4.1-1.4-7-4.8-7-9V6z" />
      <circle cx="12" cy="10" r="2.25" />
      <path d="M8.5 16c.8-1.6 2-2.4 3.5-2.4s2.7.8 3.5 2.4" />
    </Icon>
  );
}

/** A key: the API tokens screen (issue 30, part 1). */
export function KeyIcon() {
  return (
    <Icon>
      <circle cx="8" cy="15" r="4.5" />
      <path d="M11.2 11.8 20 3" />
      <path d="M16.5 6.5l2.5 2.5" />
      <path d="M14 9l2 2" />
    </Icon>
  );
}

/** The webhooks link (issue 30, part 3): a signal going out. */
export function WebhookIcon() {
  return (
    <Icon>
      <circle cx="6" cy="17" r="2.25" />
      <circle cx="18" cy="17" r="2.25" />
      <circle cx="12" cy="6.5" r="2.25" />
      <path d="M10.8 8.5L7.2 15M13.2 8.5l3.6 6.5M8.25 17h7.5" />
    </Icon>
  );
}
