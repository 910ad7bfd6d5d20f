# Abstract types, v2: a new abstract Taggable mixed into Article and Image, a new concrete
# Podcast under Publishable (the views are recreated), a slug on Named.
module default {
    abstract type Named {
        required name: str;
        slug: str;
        index on (.name);
    }

    abstract type Timestamped {
        required created_at: datetime { default := datetime_current(); }
        modified_at: datetime;
    }

    abstract type Owned {
        owner: Account { on target delete allow; }
    }

    abstract type Publishable extending Named, Timestamped {
        required published: bool { default := false; }
        constraint expression on (.published or not exists .modified_at or .modified_at >= .created_at);
    }

    type Account extending Named {
        required email: str { constraint exclusive; }
    }

    abstract type Taggable {
        multi tags: str;
        label: str;
    }

    type Article extending Publishable, Owned, Taggable {
        required body: str;
        summary: str;
    }

    type Video extending Publishable, Owned {
        required url: str;
        required duration_seconds: int32 { constraint min_value(0); }
    }

    type Gallery extending Publishable {
        multi images: Image;
    }

    type Image extending Named, Owned, Taggable {
        required width: int32;
        required height: int32;
    }

    type FeaturedArticle extending Article {
        required rank: int16 { default := <int16>0; }
    }

    type Podcast extending Publishable {
        required audio_url: str;
    }

    type Folder extending Named {
        multi items: Named;
        parent: Folder;
    }
}
