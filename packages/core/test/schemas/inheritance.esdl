# Abstract types and multiple inheritance: a content-management model.
module default {
    abstract type Named {
        required name: str;
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

    type Article extending Publishable, Owned {
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

    type Image extending Named, Owned {
        required width: int32;
        required height: int32;
    }

    type FeaturedArticle extending Article {
        required rank: int16 { default := <int16>0; }
    }

    type Folder extending Named {
        multi items: Named;
        parent: Folder;
    }
}
