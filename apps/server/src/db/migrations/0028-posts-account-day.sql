-- TikTok's daily cap counts an account's posts of one day, once per run of a post that is due
-- (daily-cap.ts). The (user_id, due_at) index read every post of the creator due that day to find
-- one account's: for a creator with many accounts and thousands of posts due at once, every one of
-- them per count, at the due instant (decision 039). This index reads the account's posts only.
create index posts_account_due on posts (account_id, due_at) include (status, user_id);
