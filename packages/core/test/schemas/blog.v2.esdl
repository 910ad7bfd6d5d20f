# A blog, v2: drops Author.website (the data-loss fixture), adds a required handle with a
# default, comment reactions, a required tag color with a new default and a tag index.
module default {
    scalar type Slug extending str {
        constraint regexp(r'^[a-z0-9]+(-[a-z0-9]+)*$');
        constraint max_len_value(80);
    }

    scalar type PostStatus extending enum<Draft, Published, Archived>;

    abstract type HasTimestamps {
        required created_at: datetime {
            default := datetime_current();
            readonly := true;
        }
        updated_at: datetime;
    }

    type Author extending HasTimestamps {
        required email: str {
            constraint exclusive;
            constraint max_len_value(320);
        }
        required display_name: str;
        bio: str;
        required handle: str {
            default := 'anonymous';
        }
        index on (str_lower(.display_name));
        multi posts := .<author[is Post];
    }

    type Post extending HasTimestamps {
        required title: str {
            constraint min_len_value(1);
            constraint max_len_value(200);
        }
        required slug: Slug {
            constraint exclusive;
        }
        required body: str;
        required status: PostStatus {
            default := <PostStatus>'Draft';
        }
        published_at: datetime;
        required author: Author {
            on target delete delete source;
        }
        multi tags: Tag;
        required view_count: int64 {
            default := 0;
            constraint min_value(0);
        }
        index on (.published_at);
        index on ((.status, .published_at));
        constraint expression on (.status != <PostStatus>'Published' or exists .published_at);
    }

    type Comment extending HasTimestamps {
        required body: str {
            constraint max_len_value(10000);
        }
        required post: Post {
            on target delete delete source;
        }
        author: Author {
            on target delete allow;
        }
        reply_to: Comment;
        multi reactions: str;
        edited: bool {
            default := false;
        }
        index on (.post);
    }

    type Tag {
        required name: str {
            constraint exclusive;
        }
        required color: str {
            default := '#cccccc';
        }
        description: str;
        index on (str_lower(.name));
    }
}
