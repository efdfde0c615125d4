-- TikTok's daily cap counts an account's posts of one day, once per run of a post that is due
-- (daily-cap.ts). The (user_id, due_at) index read every post of the creator due that day to find
-- one account's: for a creator with 200 accounts and 2,000 posts due at once, 2,000 entries per
-- count, 1.3 ms each on the embedded database at the due instant, 0.55 ms by this index
-- (decision 039, addendum "the embedded database's share").
create index posts_account_due on posts (account_id, due_at) include (status, user_id);
