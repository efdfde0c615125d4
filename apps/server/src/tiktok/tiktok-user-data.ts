import type { z } from 'zod';
import type { RequestOptions, TikTokHttp } from './tiktok-http.ts';
import {
  userInfoDataSchema,
  videoListDataSchema,
  videoQueryDataSchema,
  type userSchema,
  type videoSchema,
} from './tiktok-schemas.ts';

export type UserInfoField = keyof z.infer<typeof userSchema>;
export type VideoField = keyof z.infer<typeof videoSchema>;

export interface TikTokUser {
  openId?: string;
  unionId?: string;
  avatarUrl?: string;
  avatarUrl100?: string;
  avatarLargeUrl?: string;
  displayName?: string;
  bioDescription?: string;
  profileDeepLink?: string;
  isVerified?: boolean;
  username?: string;
  followerCount?: number;
  followingCount?: number;
  likesCount?: number;
  videoCount?: number;
}

export interface TikTokVideo {
  id?: string;
  createTime?: number;
  coverImageUrl?: string;
  shareUrl?: string;
  videoDescription?: string;
  duration?: number;
  height?: number;
  width?: number;
  title?: string;
  embedHtml?: string;
  embedLink?: string;
  likeCount?: number;
  commentCount?: number;
  shareCount?: number;
  viewCount?: number;
}

export interface VideoPage {
  videos: TikTokVideo[];
  /** Pass back as `cursor` for the next page. */
  cursor: number;
  hasMore: boolean;
}

function toUser(user: z.infer<typeof userSchema>): TikTokUser {
  return {
    openId: user.open_id,
    unionId: user.union_id,
    avatarUrl: user.avatar_url,
    avatarUrl100: user.avatar_url_100,
    avatarLargeUrl: user.avatar_large_url,
    displayName: user.display_name,
    bioDescription: user.bio_description,
    profileDeepLink: user.profile_deep_link,
    isVerified: user.is_verified,
    username: user.username,
    followerCount: user.follower_count,
    followingCount: user.following_count,
    likesCount: user.likes_count,
    videoCount: user.video_count,
  };
}

function toVideo(video: z.infer<typeof videoSchema>): TikTokVideo {
  return {
    id: video.id,
    createTime: video.create_time,
    coverImageUrl: video.cover_image_url,
    shareUrl: video.share_url,
    videoDescription: video.video_description,
    duration: video.duration,
    height: video.height,
    width: video.width,
    title: video.title,
    embedHtml: video.embed_html,
    embedLink: video.embed_link,
    likeCount: video.like_count,
    commentCount: video.comment_count,
    shareCount: video.share_count,
    viewCount: video.view_count,
  };
}

/** User info and the Display API's video list and query (analytics, account cards). */
export function createTikTokUserData(http: TikTokHttp) {
  return {
    async getUserInfo(
      accessToken: string,
      fields: readonly UserInfoField[],
      requestOptions?: RequestOptions,
    ): Promise<TikTokUser> {
      const data = await http.apiCall(
        'user_info',
        { method: 'GET', path: '/v2/user/info/', accessToken, query: { fields: fields.join(',') } },
        userInfoDataSchema,
        requestOptions,
      );
      return toUser(data.user);
    },

    async listVideos(
      accessToken: string,
      input: { fields: readonly VideoField[]; cursor?: number; maxCount?: number },
      requestOptions?: RequestOptions,
    ): Promise<VideoPage> {
      const body: Record<string, number> = { max_count: input.maxCount ?? 20 };
      if (input.cursor !== undefined) body['cursor'] = input.cursor;
      const data = await http.apiCall(
        'video_list',
        {
          method: 'POST',
          path: '/v2/video/list/',
          accessToken,
          query: { fields: input.fields.join(',') },
          body,
        },
        videoListDataSchema,
        requestOptions,
      );
      return { videos: data.videos.map(toVideo), cursor: data.cursor, hasMore: data.has_more };
    },

    /** The user's own public videos among `videoIds` (at most 20; others are left out). */
    async queryVideos(
      accessToken: string,
      input: { fields: readonly VideoField[]; videoIds: readonly string[] },
      requestOptions?: RequestOptions,
    ): Promise<TikTokVideo[]> {
      if (input.videoIds.length === 0 || input.videoIds.length > 20) {
        throw new RangeError(`video/query takes 1 to 20 ids, not ${input.videoIds.length}`);
      }
      const data = await http.apiCall(
        'video_query',
        {
          method: 'POST',
          path: '/v2/video/query/',
          accessToken,
          query: { fields: input.fields.join(',') },
          body: { filters: { video_ids: input.videoIds } },
        },
        videoQueryDataSchema,
        requestOptions,
      );
      return data.videos.map(toVideo);
    },
  };
}
