import { Icon, type IconProps } from '../../../components/ui/icons.tsx';

// Icons only the accounts screen draws; the shared ones live in components/ui/icons.tsx.

export const SettingsIcon = (props: IconProps) => (
  <Icon {...props} d="M4 6h10M18 6h2M4 12h4M12 12h8M4 18h12M20 18h0">
    <circle cx="16" cy="6" r="2" />
    <circle cx="10" cy="12" r="2" />
    <circle cx="18" cy="18" r="2" />
  </Icon>
);

export const UsersIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M16 21v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2" />
    <circle cx="9" cy="7" r="4" />
    <path d="M22 21v-2a4 4 0 0 0-3-3.9M16 3.1a4 4 0 0 1 0 7.8" />
  </Icon>
);
