import { Icon, type IconProps } from '../../../components/ui/icons.tsx';

// Icons only the scheduler draws; the shared ones live in components/ui/icons.tsx.

export const ClockIcon = (props: IconProps) => (
  <Icon {...props} d={['M12 7v5l3 2', 'M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0z']} />
);
export const RetryIcon = (props: IconProps) => (
  <Icon
    {...props}
    d={['M4 4v6h6', 'M20 20v-6h-6', 'M20 10A8 8 0 0 0 6.3 5.3L4 10m16 4-2.3 4.7A8 8 0 0 1 4 14']}
  />
);
export const ExternalIcon = (props: IconProps) => (
  <Icon
    {...props}
    d={['M14 4h6v6', 'M20 4 10 14', 'M19 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1h5']}
  />
);
export const VideoIcon = (props: IconProps) => (
  <Icon {...props} d={['M15 10l5-3v10l-5-3', 'M4 6h11v12H4z']} />
);
export const ShuffleIcon = (props: IconProps) => (
  <Icon {...props} d={['M16 3h5v5', 'M4 20 21 3', 'M21 16v5h-5', 'M15 15l6 6', 'M4 4l5 5']} />
);
export const SpinnerDotIcon = (props: IconProps) => (
  <Icon
    {...props}
    d={['M12 3v3', 'M12 18v3', 'M4.9 4.9l2.1 2.1', 'M17 17l2.1 2.1', 'M3 12h3', 'M18 12h3']}
  />
);
export const StarIcon = (props: IconProps) => (
  <Icon
    {...props}
    d="M12 3l2.6 5.3 5.9.9-4.3 4.1 1 5.8L12 16.4 6.8 19.1l1-5.8L3.5 9.2l5.9-.9L12 3z"
  />
);
export const PencilIcon = (props: IconProps) => (
  <Icon {...props} d={['M4 20h4L19 9l-4-4L4 16v4z', 'M13.5 6.5l4 4']} />
);
export const UndoIcon = (props: IconProps) => (
  <Icon {...props} d={['M9 14 4 9l5-5', 'M4 9h11a5 5 0 0 1 0 10h-3']} />
);
export const InboxIcon = (props: IconProps) => (
  <Icon {...props} d={['M4 13h4l1.5 3h5L16 13h4', 'M5.5 5h13L21 13v6H3v-6z']} />
);
export const PlayIcon = (props: IconProps) => <Icon {...props} d="M8 5.5v13l11-6.5-11-6.5z" />;
export const PauseIcon = (props: IconProps) => <Icon {...props} d={['M9 5v14', 'M15 5v14']} />;
