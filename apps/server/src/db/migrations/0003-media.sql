-- A video a user owns: an upload (tus), a rendered story, or a meme compilation. The file lives
-- in MediaStorage under storage_key; probe holds ffprobe's normalised answer (VideoProbe).
create table media (
  id text primary key,
  user_id text not null references "user" ("id") on delete cascade,
  kind text not null check (kind in ('upload', 'story', 'compilation')),
  original_name text not null,
  content_type text not null,
  size_bytes bigint not null,
  storage_key text not null,
  thumbnail_key text,
  duration_seconds double precision not null,
  width integer not null,
  height integer not null,
  has_audio boolean not null,
  probe jsonb not null,
  created_at timestamptz not null default now()
);
create index media_user_created on media (user_id, created_at desc);
