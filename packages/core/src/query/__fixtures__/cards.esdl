# The compiler's second test schema, modelled on Gel's tests/schemas/cards.esdl (written for
# svc): a card game with link properties, computed links (a backlink, a filtered link, a single
# link by order), an exclusive multi link, subtypes and aliases.
module default {
  abstract type Named {
    required name: str {
      delegated constraint exclusive;
    }
  }

  type User extending Named {
    multi deck: Card {
      count: int64 {
        default := 1;
      }
    }
    deck_cost := sum(.deck.cost);
    multi friends: User {
      nickname: str;
    }
    multi awards: Award {
      constraint exclusive;
    }
    avatar: Card {
      text: str;
    }
  }

  type Bot extending User;

  type Card extending Named {
    required element: str;
    required cost: int64;
    text: str;
    multi owners := .<deck[is User];
    elemental_cost := <str>.cost ++ ' ' ++ .element;
    multi awards: Award;
    multi good_awards := (select .awards filter .name != '3rd');
    single best_award := (select .awards order by .name limit 1);
  }

  type SpecialCard extending Card;

  type Award extending Named {
    multi winner := .<awards[is User];
  }

  alias AirCard := (select Card filter Card.element = 'Air');
  alias WaterCard := (select Card filter Card.element = 'Water');
  alias EarthCard := (select Card filter Card.element = 'Earth');
  alias FireCard := (select Card filter Card.element = 'Fire');
  alias WaterOrEarthCard := (
    select Card {
      owned_by_alice := exists (select Card.<deck[is User].name = 'Alice')
    }
    filter .element = 'Water' or .element = 'Earth'
  );
  alias EarthOrFireCard {
    using (select Card filter .element = 'Fire' or .element = 'Earth')
  };
  alias AwardAlias := (
    Award {
      winner := Award.<awards[is User] {
        name_upper := str_upper(.name)
      }
    }
  );
  alias UserAlias := (
    select User {
      deck: { id } order by User.deck.cost desc limit 1,
    }
  );
  alias SpecialCardAlias := SpecialCard {
    el_cost := (.element, .cost)
  };
  alias AliceCard := (select Card filter 'Alice' in Card.<deck[is User].name);
  alias AliasOne := 1;
  # Gel's cards.esdl: the cards of each cost from 0 to the highest, through a range.
  alias AliasCardsByCost := array_agg((
    for cost in range_unpack(range(0, max(Card.cost) + 1))
      select array_agg((select Card filter .cost = cost))
  ));
  alias CardCountsByCost := (
    for cost in range_unpack(range(0, max(Card.cost) + 1))
      select (cost, count((select Card filter .cost = cost)))
  );
  global GlobalOne := 1;
  global HighestCost := (select max(Card.cost));
}
